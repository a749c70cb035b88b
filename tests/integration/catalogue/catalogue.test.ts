import { beforeAll, describe, expect, it } from 'vitest';
import { getActiveCourse, listActiveCategories, listCourses, listHomeCourses } from '../../../functions/catalogue/catalogue.ts';
import { makeCategory, makeCourse, makePurchase } from '../../support/factories.ts';

const titles = (page: { courses: { title: string }[] }) => page.courses.map((course) => course.title).sort();

let budget: { id: string };
let hidden: { id: string };

beforeAll(async () => {
  await makeCategory({ slug: 'business', names: { en: 'Business', tr: 'İş Dünyası' }, sort_order: 1 });
  await makeCategory({ slug: 'design', names: { en: 'Design', tr: 'Tasarım' }, sort_order: 2, is_active: false });
  budget = await makeCourse({ title: 'Budget Basics', category: 'business', price_minor: 0, difficulty_level: 'beginner' });
  await makeCourse({
    title: 'Interview Mastery',
    category: 'business',
    price_minor: 900,
    difficulty_level: 'advanced',
    instructor_name: 'Grace Hopper',
  });
  await makeCourse({
    title: 'Design 101',
    category: 'design',
    price_minor: 45_000,
    currency: 'TRY',
    difficulty_level: 'intermediate',
  });
  await makeCourse({ title: 'İstanbul’da Bütçe', language: 'tr', description: 'Şehirde tasarruf', price_minor: 299 });
  await makeCourse({ title: 'IŞIK ve Odak', language: 'tr', description: 'Sabah ışığı', price_minor: 500 });
  await makeCourse({ title: '100% Focus_Plan', description: 'Literal symbols' });
  hidden = await makeCourse({ title: 'Retired Course', is_active: false, price_minor: 0 });
  await makePurchase(budget.id);
  await makePurchase(budget.id, { email: 'second@example.com' });
  await makePurchase(budget.id, { email: 'refunded@example.com', status: 'refunded' });
});

describe('listCourses', () => {
  it('shows active courses in the interface language by default, newest first', async () => {
    const page = await listCourses({}, 'en');
    expect(titles(page)).toEqual(['100% Focus_Plan', 'Budget Basics', 'Design 101', 'Interview Mastery']);
    expect(page.courses[0]!.title).toBe('100% Focus_Plan');
    expect(page.total).toBe(4);
  });

  it('filters by language, category, difficulty and maximum price', async () => {
    expect(titles(await listCourses({ language: 'tr' }, 'en'))).toEqual(['IŞIK ve Odak', 'İstanbul’da Bütçe']);
    expect((await listCourses({ language: 'all' }, 'en')).total).toBe(6);
    expect(titles(await listCourses({ category: 'business' }, 'en'))).toEqual(['Budget Basics', 'Interview Mastery']);
    expect(titles(await listCourses({ difficulty: 'advanced' }, 'en'))).toEqual(['Interview Mastery']);
    expect(titles(await listCourses({ maxPrice: 5 }, 'en'))).toEqual(['100% Focus_Plan', 'Budget Basics']);
    expect(titles(await listCourses({ maxPrice: 0 }, 'en'))).toEqual(['Budget Basics']);
    expect(titles(await listCourses({ category: 'no-such-category' }, 'en'))).toEqual([]);
  });

  it('searches title, description and instructor, case-insensitively and Turkish-aware', async () => {
    expect(titles(await listCourses({ search: 'istanbul' }, 'tr'))).toEqual(['İstanbul’da Bütçe']);
    expect(titles(await listCourses({ search: 'ISTANBUL' }, 'tr'))).toEqual(['İstanbul’da Bütçe']);
    expect(titles(await listCourses({ search: 'ışık' }, 'tr'))).toEqual(['IŞIK ve Odak']);
    expect(titles(await listCourses({ search: 'tasarruf' }, 'tr'))).toEqual(['İstanbul’da Bütçe']);
    expect(titles(await listCourses({ search: 'grace' }, 'en'))).toEqual(['Interview Mastery']);
  });

  it('treats SQL and LIKE characters in a search as plain text', async () => {
    expect(titles(await listCourses({ search: '100%' }, 'en'))).toEqual(['100% Focus_Plan']);
    expect(titles(await listCourses({ search: '%' }, 'en'))).toEqual(['100% Focus_Plan']);
    expect(titles(await listCourses({ search: '_' }, 'en'))).toEqual(['100% Focus_Plan']);
    expect(titles(await listCourses({ search: "'; DROP TABLE courses; --" }, 'en'))).toEqual([]);
    expect((await listCourses({}, 'en')).total).toBe(4);
  });

  it('never lists inactive courses and never exposes a PDF location', async () => {
    const all = await listCourses({ language: 'all' }, 'en');
    expect(all.courses.map((course) => course.id)).not.toContain(hidden.id);
    expect(JSON.stringify(all)).not.toMatch(/pdf_path|pdfPath|courses\/[0-9a-f-]+\.pdf/);
  });

  it('counts students as completed purchases only', async () => {
    const page = await listCourses({ search: 'budget basics' }, 'en');
    expect(page.courses[0]!.students).toBe(2);
  });

  it('pages results and reports the total beyond the last page', async () => {
    const beyond = await listCourses({ page: 50 }, 'en');
    expect(beyond.courses).toEqual([]);
    expect(beyond.total).toBe(4);
  });
});

describe('getActiveCourse', () => {
  it('returns a course with its localised category name', async () => {
    const course = await getActiveCourse(budget.id, 'tr');
    expect(course).toMatchObject({ title: 'Budget Basics', categoryName: 'İş Dünyası', students: 2 });
    expect(course).not.toHaveProperty('pdfPath');
  });
  it('returns nothing for inactive, unknown or malformed ids', async () => {
    expect(await getActiveCourse(hidden.id, 'en')).toBeUndefined();
    expect(await getActiveCourse('00000000-0000-4000-8000-000000000000', 'en')).toBeUndefined();
    expect(await getActiveCourse("1' OR '1'='1", 'en')).toBeUndefined();
  });
});

describe('home and categories', () => {
  it('lists at most three active courses priced 0 to 10 in the language', async () => {
    const home = await listHomeCourses('en');
    expect(home.length).toBeLessThanOrEqual(3);
    expect(home.every((course) => course.priceMinor <= 1000 && course.language === 'en')).toBe(true);
    expect(home.map((course) => course.title)).not.toContain('Retired Course');
  });
  it('lists active categories in sort order with localised names', async () => {
    const categories = await listActiveCategories('tr');
    expect(categories.map((category) => category.slug)).toContain('business');
    expect(categories.map((category) => category.slug)).not.toContain('design');
    expect(categories.find((category) => category.slug === 'business')?.name).toBe('İş Dünyası');
  });
  it('names a category only in its own words per language: unnamed in one (a language added since), it shows its slug there', async () => {
    await makeCategory({ slug: 'crafts', names: { en: 'Crafts' }, sort_order: 3 });
    const course = await makeCourse({ title: 'Paper Folding', category: 'crafts' });
    for (const [lang, name] of [
      ['en', 'Crafts'],
      ['tr', 'crafts'],
    ] as const) {
      expect((await listActiveCategories(lang)).find((category) => category.slug === 'crafts')).toMatchObject({
        name,
        description: '',
      });
      expect(await getActiveCourse(course.id, lang)).toMatchObject({ categoryName: name });
    }
  });
});
