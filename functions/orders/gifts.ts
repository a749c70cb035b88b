import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import { courseTitleIn } from '../catalogue/bundle-texts.ts';
import { db, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { newDownloadToken, onceCompleted } from './orders.ts';
import { grantBundleCourses, notOwnedMeanwhile, restoreBundleCourses, revokeBundleCourses } from './bundles.ts';
import { giftBoughtBy, giftDeliveryDay } from './gift-rows.ts';
import { findOrCreateAccount } from './accounts.ts';
import { queueGiftMail } from './gift-mail.ts';
import { isoDay, type GiftFields } from '../../src/lib/gift.schema.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { conflict, notFound, ok, type Result } from '../../src/lib/result.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * Gifts (decision 52). A gift's order is a purchase in nobody's library (user_id NULL, not a guest
 * purchase): it carries the money, the receipt and the refund, all told to the buyer's address. On
 * the chosen day the gift-delivery job grants the course to the recipient's account as a guest
 * purchase of its own (provider `gift`, amount 0, its own download token) and mails them a sign-in
 * link; the recipient's address is used for nothing else. A bundle's grant grants its courses in
 * turn, as a bundle's order does (bundles.ts). Refunding the order ends that grant and its courses.
 */
export const GIFT_PROVIDER = 'gift';
export const GIFT_BATCH_SIZE = 20;
/** A resent gift mail: at most one in this time per gift, so a buyer cannot flood a stranger's mailbox. */
export const GIFT_RESEND_GAP_MS = 10 * 60 * 1000;

/** A checkout's gift, when it is one (the schema requires its fields then). */
export function giftOf(request: {
  gift?: boolean | undefined;
  giftTo?: string | undefined;
  giftMessage?: string | undefined;
  giftDate?: string | undefined;
}): GiftFields | undefined {
  if (!request.gift || !request.giftTo || !request.giftDate) return undefined;
  return { giftTo: request.giftTo, giftMessage: request.giftMessage ?? '', giftDate: request.giftDate };
}

/** Records the gift of an order, in the transaction that makes the order. */
export async function recordGift(
  trx: Transaction<Database>,
  orderId: string,
  buyer: { id: string; guest: boolean },
  gift: GiftFields,
  language: Language,
): Promise<void> {
  await trx
    .insertInto('gifts')
    .values({
      order_id: orderId,
      buyer_id: buyer.id,
      buyer_guest: buyer.guest,
      recipient_email: gift.giftTo.toLowerCase(),
      message: gift.giftMessage,
      language,
      deliver_on: gift.giftDate,
    })
    .execute();
}

/** A purchase that is not a gift's order: the order pays for the gift, it opens no file (its token is the receipt's). */
export function notAGiftOrder(eb: ExpressionBuilder<Database, 'purchases'>) {
  return eb.not(eb.exists(eb.selectFrom('gifts').select('gifts.id').whereRef('gifts.order_id', '=', 'purchases.id')));
}

/** The gift an order is, if it is one (success page, fulfilment). */
export async function giftOfOrder(
  database: Db,
  orderId: string,
): Promise<{ id: string; recipientEmail: string; deliverOn: string; deliveredAt: Date | null } | undefined> {
  const row = await database
    .selectFrom('gifts')
    .select(['id', 'recipient_email', giftDeliveryDay.as('deliver_on'), 'delivered_at'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return row && { id: row.id, recipientEmail: row.recipient_email, deliverOn: row.deliver_on, deliveredAt: row.delivered_at };
}

/**
 * Delivers the paid gifts whose day has begun at `now` (UTC), one batch, each claimed so that
 * instances share the work. Answers how many were delivered.
 */
export async function deliverDueGifts(database: Db, now: Date): Promise<number> {
  return database.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('gifts')
      .innerJoin('purchases', 'purchases.id', 'gifts.order_id')
      .select('gifts.id')
      .where('gifts.delivered_at', 'is', null)
      .where('gifts.deliver_on', '<=', sql<Date>`${isoDay(now)}::date`)
      .where('purchases.status', '=', 'completed')
      .orderBy('gifts.deliver_on')
      .limit(GIFT_BATCH_SIZE)
      .forUpdate('gifts')
      .skipLocked()
      .execute();
    for (const gift of due) await deliverGift(trx, gift.id);
    return due.length;
  });
}

/**
 * The recipient's course: their account (made silently, as a guest checkout makes one), a guest
 * purchase in it that opens once they prove the address by the mail's sign-in link, and the mail.
 * A recipient who owns the course already keeps their own purchase; the mail still tells them. A
 * bundle's grant grants each of its courses the recipient lacks, pointing back at it.
 */
async function deliverGift(trx: Transaction<Database>, giftId: string): Promise<void> {
  const gift = await trx
    .selectFrom('gifts')
    .innerJoin('purchases', 'purchases.id', 'gifts.order_id')
    .select(['gifts.recipient_email', 'gifts.language', 'purchases.course_id', 'purchases.currency'])
    .where('gifts.id', '=', giftId)
    .executeTakeFirstOrThrow();
  const recipient = await findOrCreateAccount(trx, gift.recipient_email, '', gift.language as Language);
  const granted = await trx
    .insertInto('purchases')
    .values({
      user_id: recipient.id,
      course_id: gift.course_id,
      email: recipient.email,
      language: gift.language,
      guest: true,
      currency: gift.currency,
      buyer_key: mailboxKey(recipient.email),
      // Paid for on the gift's order (and its receipt); nothing of its own to refund.
      amount_minor: 0,
      status: 'completed',
      provider: GIFT_PROVIDER,
      payment_id: `${GIFT_PROVIDER}_${giftId}`,
      download_token: newDownloadToken(),
      completed_at: new Date(),
    })
    .onConflict(onceCompleted)
    .returning('id')
    .executeTakeFirst();
  if (granted) await grantBundleCourses(trx, granted.id);
  await trx
    .updateTable('gifts')
    .set({ delivered_at: new Date(), last_sent_at: new Date(), grant_id: granted?.id ?? null })
    .where('id', '=', giftId)
    .execute();
  await queueGiftMail(trx, giftId);
}

/** The order's refund or dispute ends the recipient's access it granted (a bundle's courses too), and only that. */
export async function revokeGift(trx: Transaction<Database>, orderId: string, status: 'refunded' | 'disputed'): Promise<void> {
  const grantId = await grantOfOrder(trx, orderId);
  if (!grantId) return;
  await trx
    .updateTable('purchases')
    .set({ status, updated_at: new Date() })
    .where('id', '=', grantId)
    .where('status', 'in', ['completed', 'disputed'])
    .execute();
  await revokeBundleCourses(trx, grantId, status);
}

/** A dispute won: the recipient's access comes back, except what they have bought meanwhile. */
export async function restoreGift(trx: Transaction<Database>, orderId: string): Promise<void> {
  const grantId = await grantOfOrder(trx, orderId);
  if (!grantId) return;
  await trx
    .updateTable('purchases')
    .set({ status: 'completed', updated_at: new Date() })
    .where('id', '=', grantId)
    .where('status', '=', 'disputed')
    .where(notOwnedMeanwhile)
    .execute();
  await restoreBundleCourses(trx, grantId);
}

/** The recipient's purchase a gift's order granted on its day (none before, or for an order that is no gift). */
async function grantOfOrder(trx: Transaction<Database>, orderId: string): Promise<string | undefined> {
  const gift = await trx.selectFrom('gifts').select('grant_id').where('order_id', '=', orderId).executeTakeFirst();
  return gift?.grant_id ?? undefined;
}

/** A gift as its buyer sees it in their dashboard. */
export interface GiftView {
  id: string;
  courseTitle: string;
  recipientEmail: string;
  deliverOn: string;
  deliveredAt: string | null;
  /** `waiting`: not paid yet; `scheduled` and `delivered` are paid; `refunded` covers disputes too. */
  state: 'waiting' | 'scheduled' | 'delivered' | 'refunded';
}

/**
 * The gifts an account bought, newest first. A gift bought signed out shows once the account has
 * proved its address, as guest purchases do (library.ts).
 */
export async function listGifts(userId: string, database: Db = db()): Promise<GiftView[]> {
  const rows = await buyersGifts(database, userId)
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'gifts.id',
      // A bundle's title in the order's language (decision 44), as on its receipt.
      courseTitleIn(sql.ref('purchases.language')).as('title'),
      'gifts.recipient_email',
      giftDeliveryDay.as('deliver_on'),
      'gifts.delivered_at',
      'purchases.status',
    ])
    .where('purchases.status', 'in', ['pending', 'completed', 'refunded', 'disputed'])
    .orderBy('gifts.created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    courseTitle: row.title,
    recipientEmail: row.recipient_email,
    deliverOn: row.deliver_on,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    state: giftState(row.status, row.delivered_at),
  }));
}

function giftState(status: string, deliveredAt: Date | null): GiftView['state'] {
  if (status === 'pending') return 'waiting';
  if (status !== 'completed') return 'refunded';
  return deliveredAt ? 'delivered' : 'scheduled';
}

function buyersGifts(database: Db, userId: string) {
  return database
    .selectFrom('gifts')
    .innerJoin('purchases', 'purchases.id', 'gifts.order_id')
    .where('gifts.buyer_id', '=', userId)
    .where(giftBoughtBy(userId));
}

/**
 * The buyer sends a paid gift now: one not delivered yet is delivered at once (its day brought
 * forward), one delivered is mailed again with a new sign-in link. Another buyer's gift is not found.
 */
export async function resendGift(userId: string, giftId: string): Promise<Result<{ sent: 'delivered' | 'again' }>> {
  if (!isUuid(giftId)) return notFound;
  return db()
    .transaction()
    .execute(async (trx) => {
      const gift = await buyersGifts(trx, userId)
        .select(['gifts.id', 'gifts.delivered_at', 'gifts.last_sent_at', 'purchases.status'])
        .where('gifts.id', '=', giftId)
        .forUpdate('gifts')
        .executeTakeFirst();
      if (!gift) return notFound;
      if (gift.status !== 'completed') return conflict('gift_not_paid', 'gifts.notActive');
      if (gift.last_sent_at && Date.now() - gift.last_sent_at.getTime() < GIFT_RESEND_GAP_MS)
        return conflict('gift_sent_recently', 'gifts.sentRecently');
      if (!gift.delivered_at) {
        await deliverGift(trx, gift.id);
        return ok({ sent: 'delivered' as const });
      }
      await trx.updateTable('gifts').set({ last_sent_at: new Date() }).where('id', '=', gift.id).execute();
      await queueGiftMail(trx, gift.id);
      return ok({ sent: 'again' as const });
    });
}
