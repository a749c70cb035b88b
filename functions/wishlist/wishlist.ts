import { db } from '../db/database.ts';
import { inLibraryOf } from '../orders/library.ts';
import { listCoursesByIds, type CourseSummary } from '../catalogue/catalogue.ts';
import { MAX_WISHLIST_SIZE } from '../../src/lib/wishlist.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * A signed-in buyer's wishlist. It holds active courses the buyer does not own: a course bought
 * (or taken off sale) drops out of every answer, and is removed for good when the list is next written.
 */
export async function wishlistIds(userId: string): Promise<string[]> {
  const rows = await db()
    .selectFrom('wishlist_items')
    .innerJoin('courses', 'courses.id', 'wishlist_items.course_id')
    .select('wishlist_items.course_id')
    .where('wishlist_items.user_id', '=', userId)
    .where('courses.is_active', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('purchases')
            .select('purchases.id')
            .whereRef('purchases.course_id', '=', 'wishlist_items.course_id')
            .where('purchases.status', '=', 'completed')
            .where(inLibraryOf(userId)),
        ),
      ),
    )
    .orderBy('wishlist_items.added_at', 'desc')
    .orderBy('wishlist_items.course_id')
    .limit(MAX_WISHLIST_SIZE)
    .execute();
  return rows.map((row) => row.course_id);
}

/** Adds courses (a browser's list at sign-in, or one heart); unknown ids are ignored. Returns the list. */
export async function addToWishlist(userId: string, courseIds: readonly string[]): Promise<string[]> {
  if (courseIds.length > 0) {
    await db()
      .insertInto('wishlist_items')
      .columns(['user_id', 'course_id'])
      .expression((eb) =>
        eb
          .selectFrom('courses')
          .select([eb.val(userId).as('user_id'), 'courses.id'])
          .where('courses.id', 'in', [...new Set(courseIds)])
          .where('courses.is_active', '=', true),
      )
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .execute();
  }
  return trimmed(userId);
}

export async function removeFromWishlist(userId: string, courseId: string): Promise<string[]> {
  await db().deleteFrom('wishlist_items').where('user_id', '=', userId).where('course_id', '=', courseId).execute();
  return wishlistIds(userId);
}

/** The dashboard's card: the saved courses, newest first. */
export async function wishlistCourses(userId: string, lang: Language): Promise<CourseSummary[]> {
  return listCoursesByIds(await wishlistIds(userId), lang);
}

/** The list after a write, with what no longer belongs in it (owned, off sale, over the cap) removed. */
async function trimmed(userId: string): Promise<string[]> {
  const kept = await wishlistIds(userId);
  let removal = db().deleteFrom('wishlist_items').where('user_id', '=', userId);
  if (kept.length > 0) removal = removal.where('course_id', 'not in', kept);
  await removal.execute();
  return kept;
}
