import type { ExpressionBuilder, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newDownloadToken } from './orders.ts';

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
        provider: 'bundle',
        payment_id: `bundle_${orderId}_${course_id}`,
        download_token: newDownloadToken(),
        completed_at: completedAt,
        bundle_purchase_id: orderId,
      })),
    )
    // A course the buyer owns already (bought alone, or meanwhile) stays theirs, untouched.
    .onConflict((conflict) => conflict.columns(['user_id', 'course_id']).where('status', '=', 'completed').doNothing())
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
