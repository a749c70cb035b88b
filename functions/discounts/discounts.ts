import { sql, type Transaction } from 'kysely';
import { db, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { invalid, ok, type Result } from '../../src/lib/result.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { log } from '../log.ts';
import { MINIMUM_CHARGE_MINOR } from '../../src/lib/money.ts';

/**
 * Discount codes: the server alone prices an order (the browser sends the code, never an amount).
 * A code is taken by an order when checkout starts, under the code row's lock and only while
 * below its limit, and given back if that order fails or expires: a limit of N admits exactly N.
 *
 * An unpaid order holds its use only while its payment page is open (`discount_held_until`, the
 * page's expiry): the next checkout of the code gives expired holds back, webhook or not. One buyer
 * (their mailbox, however spelt) holds one use of a code at a time, for their newest payment page,
 * and one client address HOLDS_PER_CLIENT, so unpaid checkouts cannot keep a limited code from real
 * buyers.
 */

/** Uses of one code a client address's unpaid orders may hold at once: a few people behind one address. */
export const HOLDS_PER_CLIENT = 3;

/** Who asks for a use: compared by mailbox (mailboxKey) and client address. */
export interface CodeHolder {
  email: string;
  clientIp: string;
}

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
  /** A one-time offer's code: the order that earned it, and the only mailbox that may use it. */
  offer_purchase_id: string | null;
  buyer_key: string | null;
}

/** The price of a course for a buyer (their e-mail, when known) with an optional code, or why the code does not apply. */
export async function priceWithCode(course: PricedCourse, code: string, buyerEmail: string | undefined): Promise<Result<Quote>> {
  const list: Quote = {
    listMinor: course.priceMinor,
    discountMinor: 0,
    totalMinor: course.priceMinor,
    currency: course.currency,
  };
  if (code === '') return ok(list);
  if (course.priceMinor === 0)
    return invalid('code_not_needed', 'checkout.codeNotNeeded', { discountCode: 'checkout.codeNotNeeded' });
  const row = await db().selectFrom('discount_codes').selectAll().where('code', '=', code.toUpperCase()).executeTakeFirst();
  const refusal = row ? await whyNot(row, course, buyerEmail, db()) : 'checkout.codeUnknown';
  if (refusal) return invalid('code_refused', refusal, { discountCode: refusal });
  const discountMinor = Math.min(course.priceMinor, discountOf(row!, course));
  const totalMinor = course.priceMinor - discountMinor;
  if (!chargeable(totalMinor, course.currency))
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
  buyerEmail: string | undefined,
  database: Db,
): Promise<Parameters<typeof invalid>[1] | undefined> {
  const now = new Date();
  if (!row.active) return 'checkout.codeUnknown';
  if (row.starts_at && row.starts_at > now) return 'checkout.codeNotStarted';
  if (row.ends_at && row.ends_at <= now) return 'checkout.codeExpired';
  if (row.max_redemptions !== null && row.redemptions - (await expiredHolds(database, row.id)) >= row.max_redemptions)
    return 'checkout.codeUsedUp';
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
  if (row.once_per_buyer && buyerEmail && (await usedByBuyer(database, row.id, mailboxKey(buyerEmail))))
    return 'checkout.codeAlreadyUsed';
  if (row.offer_purchase_id) return whyNotOffer(row, buyerEmail, database);
  return undefined;
}

/**
 * A one-time offer's code (functions/offers/) is its buyer's alone, and only while the order that
 * earned it stands: a refunded order's offer ends with it. Without an address yet (a guest's quote)
 * the checkout asks again with the one typed.
 */
async function whyNotOffer(row: CodeRow, buyerEmail: string | undefined, database: Db) {
  if (buyerEmail && mailboxKey(buyerEmail) !== row.buyer_key) return 'checkout.codeNotYours';
  const earnedBy = await database
    .selectFrom('purchases')
    .select('id')
    .where('id', '=', row.offer_purchase_id)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return earnedBy ? undefined : 'checkout.codeExpired';
}

/** Uses still counted for unpaid orders whose payment page has closed (given back at the next take). */
async function expiredHolds(database: Db, codeId: string): Promise<number> {
  const row = await database
    .selectFrom('purchases')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('discount_code_id', '=', codeId)
    .where('status', '=', 'pending')
    .where('discount_held_until', '<=', new Date())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A completed (or refunded, disputed) order of this buyer with the code, or an unpaid one whose page is open. */
async function usedByBuyer(database: Db, codeId: string, buyerKey: string): Promise<boolean> {
  const used = await database
    .selectFrom('purchases')
    .select('id')
    .where('discount_code_id', '=', codeId)
    .where('buyer_key', '=', buyerKey)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['completed', 'refunded', 'disputed']),
        eb.and([eb('status', '=', 'pending'), eb('discount_held_until', '>', new Date())]),
      ]),
    )
    .executeTakeFirst();
  return Boolean(used);
}

function amountsOf(row: CodeRow): Record<string, number> {
  return typeof row.amounts === 'object' && row.amounts !== null ? (row.amounts as Record<string, number>) : {};
}

/** What a percent code takes off a price, rounded to the minor unit as every quote rounds it. */
export function percentOff(priceMinor: number, percent: number): number {
  return Math.round((priceMinor * percent) / 100);
}

/** Whether a total the buyer would pay is one a provider can charge (free, or at least the currency's least charge). */
export function chargeable(totalMinor: number, currency: string): boolean {
  return totalMinor === 0 || totalMinor >= (MINIMUM_CHARGE_MINOR[currency] ?? 0);
}

function discountOf(row: CodeRow, course: PricedCourse): number {
  if (row.kind === 'percent') return percentOff(course.priceMinor, row.percent ?? 0);
  return amountsOf(row)[course.currency] ?? 0;
}

export type TakeOutcome = 'taken' | 'used_up' | 'already_used' | 'held';

/**
 * Takes one use of a code for an order, in the order's transaction, under the code row's lock (so
 * concurrent checkouts queue and every rule below sees the others' uses): gives back the holds of
 * closed payment pages, refuses a buyer who used a once-per-buyer code, moves a buyer's hold to their
 * new payment page (for an `unpaid` order, which holds the use until its page closes), refuses a client
 * already holding its share, and a code with no use left.
 */
export async function takeCode(
  trx: Transaction<Database>,
  codeId: string,
  holder: CodeHolder,
  unpaid = false,
): Promise<TakeOutcome> {
  const code = await trx
    .selectFrom('discount_codes')
    .select('once_per_buyer')
    .where('id', '=', codeId)
    .forUpdate()
    .executeTakeFirst();
  if (!code) return 'used_up';
  await giveBackHolds(trx, codeId, { closedPages: true });
  const buyerKey = mailboxKey(holder.email);
  if (code.once_per_buyer && (await usedByBuyer(trx, codeId, buyerKey))) return 'already_used';
  if (unpaid) {
    // A buyer back from the payment page who tries again: the new page holds their use, not the old one
    // (paid after all, the old order takes a use again like any order paid after its hold ended).
    await giveBackHolds(trx, codeId, { buyerKey });
    const holds = await trx
      .selectFrom('purchases')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('discount_code_id', '=', codeId)
      .where('status', '=', 'pending')
      .where('discount_held_until', '>', new Date())
      .where('discount_hold_client', '=', holder.clientIp)
      .executeTakeFirstOrThrow();
    if (Number(holds.count) >= HOLDS_PER_CLIENT) return 'held';
  }
  const taken = await trx
    .updateTable('discount_codes')
    .set({ redemptions: sql`redemptions + 1`, updated_at: new Date() })
    .where('id', '=', codeId)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('max_redemptions', 'is', null), eb('redemptions', '<', eb.ref('max_redemptions'))]))
    .returning('id')
    .executeTakeFirst();
  return taken ? 'taken' : 'used_up';
}

/**
 * Uses held by unpaid orders go back to the code (its row is locked): those whose payment page has
 * closed, or one buyer's live holds.
 */
async function giveBackHolds(
  trx: Transaction<Database>,
  codeId: string,
  which: { closedPages: true } | { buyerKey: string },
): Promise<void> {
  const released = await trx
    .updateTable('purchases')
    .set({ discount_held_until: null })
    .where('discount_code_id', '=', codeId)
    .where('status', '=', 'pending')
    .where((eb) =>
      'buyerKey' in which
        ? eb.and([eb('buyer_key', '=', which.buyerKey), eb('discount_held_until', 'is not', null)])
        : eb('discount_held_until', '<=', new Date()),
    )
    .returning('id')
    .execute();
  if (released.length === 0) return;
  await trx
    .updateTable('discount_codes')
    .set({ redemptions: sql`greatest(redemptions - ${released.length}, 0)`, updated_at: new Date() })
    .where('id', '=', codeId)
    .execute();
}

/** Gives back the code of an order that will never complete (failed, expired), unless its hold already went back. */
export async function releaseCode(trx: Transaction<Database>, orderId: string): Promise<void> {
  const held = await trx
    .updateTable('purchases')
    .set({ discount_held_until: null })
    .where('id', '=', orderId)
    .where('discount_held_until', 'is not', null)
    .returning('discount_code_id')
    .executeTakeFirst();
  if (!held?.discount_code_id) return;
  await trx
    .updateTable('discount_codes')
    .set({ redemptions: sql`greatest(redemptions - 1, 0)`, updated_at: new Date() })
    .where('id', '=', held.discount_code_id)
    .execute();
}

/**
 * A paid order keeps its use for good. One whose hold already went back (paid on a page that outlived
 * it, which Stripe's expiry prevents) takes a use again if one is left: the buyer has paid the
 * discounted price either way, so the order completes, and the rare use beyond the limit is logged.
 */
export async function keepCode(trx: Transaction<Database>, orderId: string): Promise<void> {
  const order = await trx
    .selectFrom('purchases')
    .select(['discount_code_id', 'discount_held_until'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order?.discount_code_id) return;
  if (order.discount_held_until) {
    await trx.updateTable('purchases').set({ discount_held_until: null }).where('id', '=', orderId).execute();
    return;
  }
  const taken = await trx
    .updateTable('discount_codes')
    .set({ redemptions: sql`redemptions + 1`, updated_at: new Date() })
    .where('id', '=', order.discount_code_id)
    .where((eb) => eb.or([eb('max_redemptions', 'is', null), eb('redemptions', '<', eb.ref('max_redemptions'))]))
    .returning('id')
    .executeTakeFirst();
  if (!taken)
    log.warn(
      { order: orderId, code: order.discount_code_id },
      'paid after its code hold ended with no use left: code used beyond its limit',
    );
}
