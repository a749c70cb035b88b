import type { Transaction } from 'kysely';
import { db, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { BundleChoice, CourseInput } from '../../src/lib/admin/courses.schema.ts';
import type { Currency } from '../../src/lib/course-filters.ts';
import type { FieldErrors } from '../../src/lib/validation.ts';

/**
 * A bundle's side of the admin's course editor (decision 44): which courses it may hold, checked
 * before the write, and its list saved in the write's transaction. A bundle holds courses (never
 * another bundle) in its own currency, so its saving compares like with like.
 */

/** Every course (not bundle), active or not, by title: what the editor's bundle list offers. */
export async function listBundleChoices(): Promise<BundleChoice[]> {
  const rows = await db()
    .selectFrom('courses')
    .select(['id', 'title', 'currency', 'price_minor'])
    .where('kind', '=', 'course')
    .orderBy('title')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, title: row.title, currency: row.currency as Currency, priceMinor: row.price_minor }));
}

/** Why a bundle's courses cannot be saved: one unknown, a bundle, itself, or in another currency. */
export async function bundleProblem(input: CourseInput, bundleId: string): Promise<FieldErrors> {
  if (input.kind !== 'bundle') return {};
  const found = await db()
    .selectFrom('courses')
    .select(['id', 'kind', 'currency'])
    .where('id', 'in', input.bundleCourseIds)
    .execute();
  if (found.length !== input.bundleCourseIds.length || found.some((course) => course.kind !== 'course' || course.id === bundleId))
    return { bundleCourses: 'admin.courses.errors.bundleCoursesInvalid' };
  if (found.some((course) => course.currency !== input.currency)) return { bundleCourses: 'admin.courses.errors.bundleCurrency' };
  return {};
}

/**
 * Replaces a bundle's list, texts and prices with the saved ones, in the save's transaction (a course
 * saves none). Its own language's text and own currency's price are also its row's (admin-courses.ts).
 */
export async function saveBundleItems(trx: Transaction<Database>, bundleId: string, input: CourseInput): Promise<void> {
  if (input.kind !== 'bundle') return;
  await trx.deleteFrom('bundle_items').where('bundle_id', '=', bundleId).execute();
  await trx.deleteFrom('bundle_texts').where('bundle_id', '=', bundleId).execute();
  await trx.deleteFrom('bundle_prices').where('bundle_id', '=', bundleId).execute();
  await trx
    .insertInto('bundle_items')
    .values(input.bundleCourseIds.map((course_id, position) => ({ bundle_id: bundleId, course_id, position })))
    .execute();
  await trx
    .insertInto('bundle_texts')
    .values(input.bundleTexts.map((text) => ({ bundle_id: bundleId, ...text })))
    .execute();
  await trx
    .insertInto('bundle_prices')
    .values(input.bundlePrices.map(({ currency, priceMinor }) => ({ bundle_id: bundleId, currency, price_minor: priceMinor })))
    .execute();
}

/** Whether a bundle holds this course: it cannot be deleted then (the bundle's buyers were promised it). */
export async function heldByBundle(database: Db, courseId: string): Promise<boolean> {
  const row = await database.selectFrom('bundle_items').select('bundle_id').where('course_id', '=', courseId).executeTakeFirst();
  return row !== undefined;
}
