import { randomBytes } from 'node:crypto';
import { sql, type OnConflictBuilder } from 'kysely';
import { courseTitleIn } from '../catalogue/bundle-texts.ts';
import { db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** How an order is named to people (receipts, e-mails, support): short, and enough to find it. */
export function orderReference(purchaseId: string): string {
  return `MC-${purchaseId.replaceAll('-', '').slice(0, 8).toUpperCase()}`;
}

/** A permanent, unguessable download link token for a purchase. */
export function newDownloadToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A second completed purchase of one course by one buyer is not written (the partial unique index on
 * completed purchases). The index's condition is a literal: PostgreSQL matches an ON CONFLICT clause to a
 * partial index when it plans, and a named statement's generic plan does not know a parameter's value.
 */
export const onceCompleted = (conflict: OnConflictBuilder<Database, 'purchases'>) =>
  conflict.columns(['user_id', 'course_id']).where('status', '=', sql.lit('completed')).doNothing();

export interface OrderView {
  purchaseId: string;
  /** The account it belongs to, and whether it was made without signing in (see library.ts). */
  userId: string | null;
  guest: boolean;
  paymentId: string;
  status: 'pending' | 'completed' | 'failed' | 'expired' | 'refunded' | 'disputed';
  /** `free`, or the payment provider's name (functions/payments/registry.ts). */
  provider: string;
  courseId: string;
  courseTitle: string;
  email: string;
  amountMinor: number;
  currency: string;
  language: string;
}

/**
 * An order by its checkout reference (a provider's Checkout Session id or token, `free_…`, `demo_…`):
 * unguessable, so it may be shown to whoever holds it.
 */
export async function getOrderByPaymentId(paymentId: string): Promise<OrderView | undefined> {
  if (!/^[\w-]{16,300}$/.test(paymentId)) return undefined;
  const row = await db()
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'purchases.id',
      'purchases.user_id',
      'purchases.guest',
      'purchases.payment_id',
      'purchases.status',
      'purchases.provider',
      'purchases.course_id',
      // A bundle's title in the order's language (decision 44).
      courseTitleIn(sql.ref('purchases.language')).as('title'),
      'purchases.email',
      'purchases.amount_minor',
      'purchases.currency',
      'purchases.language',
    ])
    .where('purchases.payment_id', '=', paymentId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    purchaseId: row.id,
    userId: row.user_id,
    guest: row.guest,
    paymentId: row.payment_id!,
    status: row.status,
    provider: row.provider,
    courseId: row.course_id,
    courseTitle: row.title,
    email: row.email,
    amountMinor: row.amount_minor,
    currency: row.currency,
    language: row.language,
  };
}

/** The permanent download link of a completed order; the caller has checked who may have it. */
export async function orderDownloadToken(purchaseId: string): Promise<string | undefined> {
  const row = await db()
    .selectFrom('purchases')
    .select('download_token')
    .where('id', '=', purchaseId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return row?.download_token ?? undefined;
}
