import { sql, type Transaction } from 'kysely';
import { db, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { invalid, ok, type Result } from '../../src/lib/result.ts';

/**
 * Discount codes: the server alone prices an order (the browser sends the code, never an amount).
 * A code is taken by an order when checkout starts, under the code row's lock and only while
 * below its limit, and given back if that order fails or expires: a limit of N admits exactly N.
 */

/**
 * The smallest amount Stripe charges per currency (US$0.50 and €0.50 as Stripe publishes them; the
 * lira's from US$0.50 at a margin, as Stripe measures it in the settlement currency).
 */
export const MINIMUM_CHARGE_MINOR: Record<string, number> = { USD: 50, EUR: 50, TRY: 2500 };

export interface PricedCourse {
  id: string;
  priceMinor: number;
  currency: string;
}

export interface Quote {
  listMinor: number;
  discountMinor: number;
  totalMinor: number;
  currency: string;
  /** The code applied, upper-case; absent without one. */
  code?: string;
  codeId?: string;
  oncePerBuyer?: boolean;
}

interface CodeRow {
  id: string;
  code: string;
  kind: 'percent' | 'fixed';
  percent: number | null;
  amounts: unknown;
  all_courses: boolean;
  starts_at: Date | null;
  ends_at: Date | null;
  max_redemptions: number | null;
  once_per_buyer: boolean;
  active: boolean;
  redemptions: number;
}

/** The price of a course for a buyer with an optional code, or why the code does not apply. */
export async function priceWithCode(
  course: PricedCourse,
  code: string,
  buyerId: string | undefined,
  database: Db | Transaction<Database> = db(),
): Promise<Result<Quote>> {
  const list: Quote = {
    listMinor: course.priceMinor,
    discountMinor: 0,
    totalMinor: course.priceMinor,
    currency: course.currency,
  };
  if (code === '') return ok(list);
  if (course.priceMinor === 0)
    return invalid('code_not_needed', 'checkout.codeNotNeeded', { discountCode: 'checkout.codeNotNeeded' });
  const row = await database.selectFrom('discount_codes').selectAll().where('code', '=', code.toUpperCase()).executeTakeFirst();
  const refusal = row ? await whyNot(row, course, buyerId, database) : 'checkout.codeUnknown';
  if (refusal) return invalid('code_refused', refusal, { discountCode: refusal });
  const discountMinor = Math.min(course.priceMinor, discountOf(row!, course));
  const totalMinor = course.priceMinor - discountMinor;
  if (totalMinor > 0 && totalMinor < (MINIMUM_CHARGE_MINOR[course.currency] ?? 0))
    return invalid('below_minimum', 'checkout.codeBelowMinimum', { discountCode: 'checkout.codeBelowMinimum' });
  return ok({
    ...list,
    discountMinor,
    totalMinor,
    code: row!.code,
    codeId: row!.id,
    oncePerBuyer: row!.once_per_buyer,
  });
}

async function whyNot(
  row: CodeRow,
  course: PricedCourse,
  buyerId: string | undefined,
  database: Db | Transaction<Database>,
): Promise<Parameters<typeof invalid>[1] | undefined> {
  const now = new Date();
  if (!row.active) return 'checkout.codeUnknown';
  if (row.starts_at && row.starts_at > now) return 'checkout.codeNotStarted';
  if (row.ends_at && row.ends_at <= now) return 'checkout.codeExpired';
  if (row.max_redemptions !== null && row.redemptions >= row.max_redemptions) return 'checkout.codeUsedUp';
  if (row.kind === 'fixed' && amountsOf(row)[course.currency] === undefined) return 'checkout.codeNotForCourse';
  if (!row.all_courses) {
    const listed = await database
      .selectFrom('discount_code_courses')
      .select('course_id')
      .where('discount_code_id', '=', row.id)
      .where('course_id', '=', course.id)
      .executeTakeFirst();
    if (!listed) return 'checkout.codeNotForCourse';
  }
  if (row.once_per_buyer && buyerId) {
    const used = await database
      .selectFrom('purchases')
      .select('id')
      .where('discount_code_id', '=', row.id)
      .where('user_id', '=', buyerId)
      .where('status', 'in', ['pending', 'completed', 'refunded', 'disputed'])
      .executeTakeFirst();
    if (used) return 'checkout.codeAlreadyUsed';
  }
  return undefined;
}

function amountsOf(row: CodeRow): Record<string, number> {
  return typeof row.amounts === 'object' && row.amounts !== null ? (row.amounts as Record<string, number>) : {};
}

function discountOf(row: CodeRow, course: PricedCourse): number {
  if (row.kind === 'percent') return Math.round((course.priceMinor * (row.percent ?? 0)) / 100);
  return amountsOf(row)[course.currency] ?? 0;
}

/**
 * Takes one use of a code for an order, in the order's transaction: the row lock makes concurrent
 * checkouts queue, and the condition admits them only while uses remain. False: none left.
 */
export async function takeCode(trx: Transaction<Database>, codeId: string): Promise<boolean> {
  const taken = await trx
    .updateTable('discount_codes')
    .set({ redemptions: sql`redemptions + 1`, updated_at: new Date() })
    .where('id', '=', codeId)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('max_redemptions', 'is', null), eb('redemptions', '<', eb.ref('max_redemptions'))]))
    .returning('id')
    .executeTakeFirst();
  return Boolean(taken);
}

/** Gives back the code of an order that will never complete (failed, expired). */
export async function releaseCode(trx: Transaction<Database>, orderId: string): Promise<void> {
  await trx
    .updateTable('discount_codes')
    .set({ redemptions: sql`greatest(redemptions - 1, 0)`, updated_at: new Date() })
    .where('id', '=', (eb) => eb.selectFrom('purchases').select('discount_code_id').where('id', '=', orderId))
    .execute();
}
