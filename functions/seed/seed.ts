import { createHash } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { getFile, putFile, publicUrl } from '../storage/storage.ts';
import { renderCoverSvg } from './course-cover.ts';
import { renderCoursePdf } from './course-pdf.ts';
import { demoCourseId } from './demo-ids.ts';
import { loadDemoCatalogue, type DemoBundle, type DemoCatalogue, type DemoCourse } from './demo-catalogue.ts';

export interface SeedReport {
  categories: number;
  courses: number;
}

/**
 * Inserts the six built-in categories and (outside production) the demo catalogue.
 * Safe to run again: nothing is duplicated.
 */
export async function seedDemoData(
  database: Db,
  { catalogue, withCourses = true }: { catalogue?: DemoCatalogue; withCourses?: boolean } = {},
): Promise<SeedReport> {
  const { shop, categories, courses: demoCourses, bundles: demoBundles } = catalogue ?? (await loadDemoCatalogue());
  const courses = withCourses ? demoCourses : [];
  const bundles = withCourses ? demoBundles : [];
  // The demo's settings only where a demo runs, and never over a seller's own.
  if (withCourses)
    await database
      .insertInto('shop_settings')
      .values({ id: true, settings: JSON.stringify(shop) })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  const insertedCategories = await database
    .insertInto('categories')
    .values(
      categories.map((category) => ({
        slug: category.slug,
        color: category.color,
        icon: category.icon,
        sort_order: category.sortOrder,
      })),
    )
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .returning(['id', 'slug'])
    .execute();
  const texts = insertedCategories.flatMap(({ id, slug }) => {
    const category = categories.find((candidate) => candidate.slug === slug)!;
    return Object.entries(category.name).map(([language, name]) => ({
      category_id: id,
      language,
      name,
      description: category.description[language as keyof typeof category.description],
    }));
  });
  if (texts.length) await database.insertInto('category_texts').values(texts).execute();

  let insertedCourses = 0;
  // Oldest first, so the catalogue's "newest first" order follows the file's order.
  const createdAt = Date.now() - courses.length * 60_000;
  for (const [index, course] of courses.entries()) {
    const id = demoCourseId(course.key);
    const files = await writeCourseFiles(id, course);
    const result = await database
      .insertInto('courses')
      .values({
        id,
        title: course.title,
        description: course.description,
        category: course.category,
        difficulty_level: course.difficulty,
        language: course.language,
        price_minor: course.priceMinor,
        minimum_price_minor: course.minimumPriceMinor ?? null,
        currency: course.currency,
        duration_minutes: course.durationMinutes,
        cover_image_url: files.coverUrl,
        pdf_path: files.pdfKey,
        instructor_name: course.instructorName,
        instructor_bio: course.instructorBio,
        tags: course.tags,
        is_featured: course.isFeatured,
        preview_first_page: course.previewPages?.firstPage ?? null,
        preview_last_page: course.previewPages?.lastPage ?? null,
        created_at: new Date(createdAt + (courses.length - index) * 60_000),
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    insertedCourses += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  for (const bundle of bundles) insertedCourses += await seedBundle(database, bundle, new Date(createdAt));
  return { categories: insertedCategories.length, courses: insertedCourses };
}

/** A demo bundle and its list; older than every demo course, so the newest-first pages open with courses. */
async function seedBundle(database: Db, bundle: DemoBundle, createdAt: Date): Promise<number> {
  const id = demoCourseId(bundle.key);
  const svg = renderCoverSvg(bundle);
  const coverKey = `covers/${id}-${createHash('sha256').update(svg).digest('hex').slice(0, 10)}.svg`;
  if (!(await getFile('public', coverKey))) await putFile('public', coverKey, svg);
  const result = await database
    .insertInto('courses')
    .values({
      id,
      kind: 'bundle',
      title: bundle.title,
      description: bundle.description,
      category: bundle.category,
      difficulty_level: bundle.difficulty,
      language: bundle.language,
      price_minor: bundle.priceMinor,
      currency: bundle.currency,
      duration_minutes: bundle.durationMinutes,
      cover_image_url: publicUrl(coverKey),
      pdf_path: null,
      instructor_name: bundle.instructorName,
      instructor_bio: bundle.instructorBio,
      tags: bundle.tags,
      is_featured: bundle.isFeatured,
      created_at: createdAt,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  const inserted = Number(result.numInsertedOrUpdatedRows ?? 0);
  if (inserted === 0) return 0;
  await database
    .insertInto('bundle_items')
    .values(bundle.courses.map((key, position) => ({ bundle_id: id, course_id: demoCourseId(key), position })))
    .execute();
  // Its own language's text and currency's price first, as the admin's editor saves them (admin-bundles.ts).
  const texts = { ...bundle.texts, [bundle.language]: { title: bundle.title, description: bundle.description } };
  await database
    .insertInto('bundle_texts')
    .values(Object.entries(texts).map(([language, text]) => ({ bundle_id: id, language, ...text })))
    .execute();
  const prices = { ...bundle.prices, [bundle.currency]: bundle.priceMinor };
  await database
    .insertInto('bundle_prices')
    .values(Object.entries(prices).map(([currency, price_minor]) => ({ bundle_id: id, currency, price_minor })))
    .execute();
  return inserted;
}

export async function isCatalogueEmpty(database: Db): Promise<boolean> {
  const row = await database
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count) === 0;
}

async function writeCourseFiles(id: string, course: DemoCourse): Promise<{ coverUrl: string; pdfKey: string }> {
  const svg = renderCoverSvg(course);
  const coverKey = `covers/${id}-${createHash('sha256').update(svg).digest('hex').slice(0, 10)}.svg`;
  const pdfKey = `courses/${id}.pdf`;
  if (!(await getFile('public', coverKey))) await putFile('public', coverKey, svg);
  if (!(await getFile('private', pdfKey))) await putFile('private', pdfKey, await renderCoursePdf(course));
  return { coverUrl: publicUrl(coverKey), pdfKey };
}
