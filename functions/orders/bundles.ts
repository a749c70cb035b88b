import type { ExpressionBuilder, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { db, type Db } from '../db/database.ts';
import { newDownloadToken, onceCompleted } from './orders.ts';
import { ownedCourses } from './library.ts';
import type { BundleContents } from '../catalogue/course-for-sale.ts';
import { bundlePriceFor } from '../../src/lib/bundle-price.ts';

/** The provider of a course a bundle's order granted: paid for on the order, so never a sale of its own. */
export const BUNDLE_PROVIDER = 'bundle';

/**
 * A bundle's courses follow its order (decision 44). The order is one purchase of the bundle row;
 * completing it grants each listed course the buyer does not own yet as a purchase of its own, so
 * the library, downloads (stamped per course), reviews and update notices need nothing new; the
 * order's refund or dispute ends exactly those grants, and a dispute won restores them. Each runs in
 * the transaction that changes the order.
 */

/** Grants the courses of a completed bundle order (none for a course's order); how many were granted. */
export async function grantBundleCourses(trx: Transaction<Database>, orderId: string): Promise<number> {
  const order = await trx
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'purchases.course_id',
      'purchases.user_id',
      'purchases.email',
      'purchases.full_name',
      'purchases.language',
      'purchases.guest',
      'purchases.currency',
      'purchases.buyer_key',
      'courses.kind',
    ])
    .where('purchases.id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (order.kind !== 'bundle') return 0;
  const items = await trx
    .selectFrom('bundle_items')
    .select('course_id')
    .where('bundle_id', '=', order.course_id)
    .orderBy('position')
    .execute();
  if (items.length === 0) return 0;
  const completedAt = new Date();
  const granted = await trx
    .insertInto('purchases')
    .values(
      items.map(({ course_id }) => ({
        user_id: order.user_id,
        course_id,
        email: order.email,
        full_name: order.full_name,
        language: order.language,
        guest: order.guest,
        currency: order.currency,
        buyer_key: order.buyer_key,
        // Paid for on the bundle's order (and its receipt); nothing of its own to refund.
        amount_minor: 0,
        status: 'completed' as const,
        provider: BUNDLE_PROVIDER,
        payment_id: `bundle_${orderId}_${course_id}`,
        download_token: newDownloadToken(),
        completed_at: completedAt,
        bundle_purchase_id: orderId,
      })),
    )
    // A course the buyer owns already (bought alone, or meanwhile) stays theirs, untouched.
    .onConflict(onceCompleted)
    .returning('id')
    .execute();
  return granted.length;
}

/** The order's refund or dispute ends the access its bundle granted, and only that. */
export async function revokeBundleCourses(
  trx: Transaction<Database>,
  orderId: string,
  status: 'refunded' | 'disputed',
): Promise<void> {
  await trx
    .updateTable('purchases')
    .set({ status, updated_at: new Date() })
    .where('bundle_purchase_id', '=', orderId)
    .where('status', 'in', ['completed', 'disputed'])
    .execute();
}

/** A dispute won: the grants it suspended come back, except courses the buyer has bought again meanwhile. */
export async function restoreBundleCourses(trx: Transaction<Database>, orderId: string): Promise<void> {
  await trx
    .updateTable('purchases')
    .set({ status: 'completed', updated_at: new Date() })
    .where('bundle_purchase_id', '=', orderId)
    .where('status', '=', 'disputed')
    .where(notOwnedMeanwhile)
    .execute();
}

/** A suspended purchase comes back only while its buyer has no other completed purchase of the course. */
export function notOwnedMeanwhile(eb: ExpressionBuilder<Database, 'purchases'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('purchases as owned')
        .select('owned.id')
        .whereRef('owned.user_id', '=', 'purchases.user_id')
        .whereRef('owned.course_id', '=', 'purchases.course_id')
        .where('owned.status', '=', 'completed'),
    ),
  );
}

/** A course as checkout sells it to this buyer; a bundle's price is lowered by the courses they own. */
export interface PricedForBuyer<C> {
  course: C;
  /** The bundle's courses the buyer owns already (none for a course, a guest, or a bundle the buyer owns none of). */
  ownedCourseIds: string[];
  /** Every course of the bundle is theirs already: nothing is left to sell. */
  ownsAll: boolean;
}

/**
 * What a signed-in buyer pays for a bundle (decision 44): its price less the share of the courses in
 * their library, unless the seller turned that off. Guests pay the bundle's price: a typed address
 * proves nothing, and pricing by it would tell a stranger what that address owns.
 */
export async function priceForBuyer<C extends { priceMinor: number; bundleContents: BundleContents | null }>(
  course: C,
  userId: string | undefined,
): Promise<PricedForBuyer<C>> {
  const contents = course.bundleContents;
  if (!contents || !userId || contents.courses.length === 0) return { course, ownedCourseIds: [], ownsAll: false };
  const owned = new Set((await ownedCourses(userId)).map((purchase) => purchase.courseId));
  const items = contents.courses.map((item) => ({ courseId: item.id, priceMinor: item.priceMinor }));
  const priced = bundlePriceFor({ priceMinor: course.priceMinor, reducesOwned: contents.reducesOwned }, items, owned);
  return {
    course: { ...course, priceMinor: priced.priceMinor },
    ownedCourseIds: priced.ownedCourseIds,
    ownsAll: priced.ownedCourseIds.length === items.length,
  };
}

/**
 * Each course of a bundle's order with the buyer's own download of it (the grant, or a purchase of
 * their own from before): what the materials mail and the success page link. Empty for a course's order.
 */
export async function bundleDownloads(orderId: string, database: Db = db()): Promise<{ title: string; downloadToken: string }[]> {
  return database
    .selectFrom('purchases as bundle_order')
    .innerJoin('bundle_items', 'bundle_items.bundle_id', 'bundle_order.course_id')
    .innerJoin('courses', 'courses.id', 'bundle_items.course_id')
    .innerJoin('purchases as owned', (join) =>
      join
        .onRef('owned.course_id', '=', 'bundle_items.course_id')
        .onRef('owned.user_id', '=', 'bundle_order.user_id')
        .on('owned.status', '=', 'completed'),
    )
    .select(['courses.title', 'owned.download_token as downloadToken'])
    .where('bundle_order.id', '=', orderId)
    .where('owned.download_token', 'is not', null)
    .orderBy('bundle_items.position')
    .orderBy('courses.title')
    .$narrowType<{ downloadToken: string }>()
    .execute();
}
