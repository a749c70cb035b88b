import { describe, expect, it } from 'vitest';
import {
  CourseFormSchema,
  courseValues,
  isCloudDriveLink,
  isCoverUrl,
  newCourseValues,
  parseAdminCourseQuery,
  parseTags,
  type AdminCourseView,
} from './courses.schema.ts';
import { parsePreviewPages } from './course-preview.schema.ts';

const valid = {
  ...newCourseValues('business'),
  title: 'Bütçe',
  description: 'Açıklama',
  instructorName: 'Ayşe',
  instructorBio: 'Eğitmen',
  coverImageUrl: '/media/covers/a-1.png',
};

describe('admin course form schema', () => {
  it('starts a new course free, in USD, in English, for beginners, not featured, active', () => {
    expect(CourseFormSchema.parse(valid)).toMatchObject({
      priceMinor: 0,
      currency: 'USD',
      language: 'en',
      difficulty: 'beginner',
      isFeatured: false,
      isActive: true,
    });
  });

  it('turns the price in major units into exact minor units', () => {
    for (const [price, minor] of [
      ['19.99', 1999],
      ['0.1', 10],
      ['1.00', 100],
      ['100000', 10_000_000],
      ['4.35', 435],
    ] as const) {
      expect(CourseFormSchema.parse({ ...valid, price }).priceMinor).toBe(minor);
    }
  });

  it('splits tags on commas, trims them and drops empties and repeats', () => {
    expect(parseTags(' ışık, ,fotoğraf ,ışık,, ')).toEqual(['ışık', 'fotoğraf']);
    expect(CourseFormSchema.parse({ ...valid, tags: '' }).tags).toEqual([]);
  });

  it('takes an empty cover URL as none, an https URL or one of the shop’s own media paths', () => {
    expect(CourseFormSchema.parse({ ...valid, coverImageUrl: '  ' }).coverImageUrl).toBeNull();
    expect(isCoverUrl('https://images.example.com/a.jpg')).toBe(true);
    expect(isCoverUrl('/media/covers/x-1.webp')).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/media/../etc/passwd',
      '/other/x.png',
      'ftp://example.com/a.png',
      'https://',
    ])
      expect(isCoverUrl(bad), bad).toBe(false);
  });

  it('flags cloud-drive share links, which do not work as images', () => {
    for (const link of [
      'https://drive.google.com/file/d/abc/view',
      'https://www.dropbox.com/s/abc/cover.png?dl=0',
      'https://onedrive.live.com/?id=1',
      'https://1drv.ms/i/s!abc',
    ])
      expect(isCloudDriveLink(link), link).toBe(true);
    for (const link of ['https://images.example.com/cover.png', 'not a url', ''])
      expect(isCloudDriveLink(link), link).toBe(false);
  });

  it('fills the edit form from a course and reads it back unchanged', () => {
    const course: AdminCourseView = {
      id: 'id',
      title: 'T',
      description: 'D',
      category: 'business',
      categoryName: 'Business',
      instructorName: 'I',
      instructorBio: 'B',
      priceMinor: 1250,
      minimumPriceMinor: 500,
      currency: 'TRY',
      language: 'tr',
      difficulty: 'advanced',
      tags: ['a', 'b'],
      isFeatured: true,
      isActive: false,
      durationMinutes: 90,
      coverImageUrl: 'https://x.example/c.png',
      hasPdf: true,
      stampPdfs: false,
      pdfVersion: 2,
      pdfUpdatedAt: '2026-11-20T10:00:00.000Z',
      previewPages: { firstPage: 3, lastPage: 7 },
      purchaseCount: 0,
      kind: 'course',
      bundleCourseIds: [],
      bundleReducesOwned: true,
      bundleTexts: {},
      bundlePrices: {},
      updateNotices: null,
      createdAt: '',
      updatedAt: '',
    };
    const values = courseValues(course);
    expect(values).toMatchObject({
      price: '12.50',
      tags: 'a, b',
      isFeatured: 'true',
      isActive: 'false',
      durationMinutes: '90',
      stampPdfs: 'false',
      notifyBuyers: 'false',
      previewPages: '3-7',
    });
    expect(CourseFormSchema.parse(values)).toMatchObject({
      priceMinor: 1250,
      minimumPriceMinor: 500,
      currency: 'TRY',
      language: 'tr',
      tags: ['a', 'b'],
      isFeatured: true,
      isActive: false,
      stampPdfs: false,
      notifyBuyers: false,
      coverImageUrl: 'https://x.example/c.png',
      previewPages: { firstPage: 3, lastPage: 7 },
    });
  });

  it('takes a bundle with at least two distinct course ids at a fixed price, and a course without any', () => {
    const [a, b] = ['0b6c2f0e-6a4f-4c55-9d1e-1f0f0e5a7c01', '0b6c2f0e-6a4f-4c55-9d1e-1f0f0e5a7c02'];
    const bundle = {
      ...valid,
      kind: 'bundle',
      bundleReducesOwned: 'false',
      'title-tr': 'Paket',
      'description-tr': 'Türkçe açıklama',
    } as const;
    expect(CourseFormSchema.parse({ ...bundle, bundleCourses: `${a}, ${b},${a}` })).toMatchObject({
      kind: 'bundle',
      bundleCourseIds: [a, b],
      bundleReducesOwned: false,
    });
    const messages = (values: Record<string, string>) =>
      (CourseFormSchema.safeParse(values).error?.issues ?? []).map((issue) => issue.message);
    expect(messages({ ...bundle, bundleCourses: a })).toEqual(['admin.courses.errors.bundleCoursesTooFew']);
    expect(messages({ ...bundle, bundleCourses: `${a},not-an-id` })).toEqual(['admin.courses.errors.bundleCoursesInvalid']);
    expect(messages({ ...bundle, bundleCourses: `${a},${b}`, payWhatYouWant: 'true' })).toEqual([
      'admin.courses.errors.bundleFixedPrice',
    ]);
    // Another language's text is required; another currency's price optional, and checked when given.
    expect(messages({ ...bundle, bundleCourses: `${a},${b}`, 'title-tr': ' ', 'description-tr': '' })).toEqual([
      'admin.courses.errors.bundleTitleRequired.tr',
      'admin.courses.errors.bundleDescriptionRequired.tr',
    ]);
    expect(messages({ ...bundle, bundleCourses: `${a},${b}`, 'price-EUR': '1.234' })).toEqual([
      'admin.courses.errors.priceInvalid',
    ]);
    // A course has no texts or prices of its own beside its row's.
    expect(CourseFormSchema.parse({ ...valid, 'title-tr': 'x', 'price-EUR': '5' })).toMatchObject({
      bundleTexts: [],
      bundlePrices: [],
    });
    // An older client leaves the bundle fields out: a course, holding nothing.
    const { kind: _kind, bundleCourses: _courses, bundleReducesOwned: _reduces, ...older } = valid;
    expect(CourseFormSchema.parse(older)).toMatchObject({ kind: 'course', bundleCourseIds: [] });
  });

  it('reads preview pages as none, the first N, or a range, and refuses anything else', () => {
    expect(parsePreviewPages(' ')).toBeNull();
    expect(parsePreviewPages('5')).toEqual({ firstPage: 1, lastPage: 5 });
    expect(parsePreviewPages('2 – 4')).toEqual({ firstPage: 2, lastPage: 4 });
    for (const bad of ['0', '4-2', '0-3', 'all', '1,2', '99999', '-3']) expect(parsePreviewPages(bad), bad).toBe('invalid');
    const values = { ...newCourseValues('business'), previewPages: '9-1' };
    const issues = CourseFormSchema.safeParse(values).error?.issues ?? [];
    expect(issues.find((issue) => issue.path[0] === 'previewPages')?.message).toBe('admin.courses.errors.previewPagesInvalid');
  });

  it('makes a pay-what-you-want course of the price as its suggestion and a minimum up to it', () => {
    const pwyw = (minimumPrice: string, price = '12') =>
      CourseFormSchema.safeParse({ ...valid, price, payWhatYouWant: 'true', minimumPrice });
    expect(pwyw('0').data).toMatchObject({ priceMinor: 1200, minimumPriceMinor: 0 });
    expect(pwyw('4.5').data).toMatchObject({ priceMinor: 1200, minimumPriceMinor: 450 });
    expect(pwyw('12').data?.minimumPriceMinor).toBe(1200);
    for (const refused of ['12.01', '', '-1', 'x'])
      expect(pwyw(refused).error?.issues[0]).toMatchObject({
        path: ['minimumPrice'],
        message: 'admin.courses.errors.minimumInvalid',
      });
    expect(CourseFormSchema.parse({ ...valid, price: '12', minimumPrice: '99' }).minimumPriceMinor).toBeNull();
  });

  it('reads the list query leniently', () => {
    expect(parseAdminCourseQuery(new URLSearchParams('search=%20%C4%B0%C5%9Fte%00x%20&page=2'))).toEqual({
      search: 'İşte x',
      page: 2,
    });
    expect(parseAdminCourseQuery(new URLSearchParams('page=-4'))).toEqual({ search: '', page: 1 });
  });
});

describe('a bundle in several languages and currencies', () => {
  it('keeps its own language and currency first, from the title and price fields, and leaves out currencies left empty', () => {
    const ids = '0b6c2f0e-6a4f-4c55-9d1e-1f0f0e5a7c01,0b6c2f0e-6a4f-4c55-9d1e-1f0f0e5a7c02';
    const parsed = CourseFormSchema.parse({
      ...valid,
      kind: 'bundle',
      bundleCourses: ids,
      language: 'tr',
      currency: 'TRY',
      price: '499',
      'title-en': ' Budget bundle ',
      'description-en': 'In English',
      // Its own language's extra fields are not read: the title and description fields hold it.
      'title-tr': 'ignored',
      'price-EUR': '11.50',
      'price-USD': '',
      'price-TRY': '1',
    });
    expect(parsed.bundleTexts).toEqual([
      { language: 'tr', title: 'Bütçe', description: 'Açıklama' },
      { language: 'en', title: 'Budget bundle', description: 'In English' },
    ]);
    expect(parsed.bundlePrices).toEqual([
      { currency: 'TRY', priceMinor: 49900 },
      { currency: 'EUR', priceMinor: 1150 },
    ]);
  });
});
