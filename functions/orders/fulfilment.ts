import { sql, type Transaction } from 'kysely';
import { db } from '../db/database.ts';
import { log } from '../log.ts';
import type { Database } from '../db/schema.ts';
import { MAIL_PURCHASE, materialsMail, queueRefundMail } from './materials.ts';
import { newDownloadToken } from './orders.ts';
import { issueCreditNote, issueReceipt, receiptNumberInMail } from './numbering.ts';
import { keepCode, releaseCode } from '../discounts/discounts.ts';
import { announceRatingChange } from '../reviews/reviews.ts';
import { grantBundleCourses, notOwnedMeanwhile, restoreBundleCourses, revokeBundleCourses } from './bundles.ts';
import { giftOfOrder, restoreGift, revokeGift } from './gifts.ts';
import { queueGiftReceiptMail } from './gift-mail.ts';

/**
 * Fulfilment: the only place a paid order becomes a completed purchase. Called with a provider's
 * confirmation (a webhook, iyzico's callback after its server-side look-up, the demo provider's Pay
 * button) and by the reconcile backstop, always with the same rules:
 * one transaction records the event id, completes the order and queues the materials mail, so a
 * redelivered event, a second event for the same session or a crash half-way changes nothing twice.
 */
export type FulfilmentOutcome =
  'fulfilled' | 'duplicate_event' | 'already_done' | 'unknown_order' | 'amount_mismatch' | 'order_mismatch' | 'already_owned';

export interface Payment {
  /** The provider's event id, when the call comes from an event (webhooks). */
  eventId?: string;
  eventType?: string;
  /** The checkout's reference: Checkout Session id (`cs_…`), iyzico token, demo payment id (`demo_…`). */
  paymentId: string;
  orderId?: string | undefined;
  paymentReference?: string | undefined;
  amountMinor?: number | undefined;
  currency?: string | undefined;
  /** What the buyer paid, instalment interest included, when the provider says (else the amount). */
  paidMinor?: number | undefined;
  /** The paying card's country, when the provider reports it: added to the order's tax evidence. */
  cardCountry?: string | undefined;
}

export async function fulfilPayment(payment: Payment): Promise<FulfilmentOutcome> {
  return db()
    .transaction()
    .execute(async (trx) => {
      // Locks the order row first: concurrent deliveries for one session queue up here. An order not
      // (yet) known records nothing, so the provider's retry can still complete it.
      const order = await trx
        .selectFrom('purchases')
        .select((eb) => [
          'id',
          'status',
          'amount_minor',
          'currency',
          'user_id',
          'course_id',
          'payment_id',
          'discount_code_id',
          'receipt_number',
          // Subqueries, not joins: the lock stays on the order's row alone.
          eb.selectFrom('courses').select('kind').whereRef('courses.id', '=', 'purchases.course_id').as('kind'),
          // The buyer's completed order of the same course, if any (two tabs each paid).
          eb
            .selectFrom('purchases as owned')
            .select('owned.id')
            .whereRef('owned.user_id', '=', 'purchases.user_id')
            .whereRef('owned.course_id', '=', 'purchases.course_id')
            .where('owned.status', '=', 'completed')
            .limit(1)
            .as('owned_id'),
        ])
        .where((eb) =>
          payment.orderId
            ? eb.or([eb('payment_id', '=', payment.paymentId), eb('id', '=', payment.orderId)])
            : eb('payment_id', '=', payment.paymentId),
        )
        .forUpdate()
        .executeTakeFirst();
      if (!order) return 'unknown_order';
      // A confirmation naming one order's checkout and another order (a basket id changed on the way).
      if ((payment.orderId && payment.orderId !== order.id) || (order.payment_id && order.payment_id !== payment.paymentId)) {
        log.error({ order: order.id, named: payment.orderId, reference: payment.paymentId }, 'a payment names another order');
        return 'order_mismatch';
      }
      if (payment.eventId && !(await recordEvent(trx, payment.eventId, payment.eventType ?? 'unknown', order.id)))
        return 'duplicate_event';
      if (order.status !== 'pending') return 'already_done';
      if (
        payment.amountMinor !== undefined &&
        (payment.amountMinor !== order.amount_minor || payment.currency?.toUpperCase() !== order.currency)
      ) {
        log.error(
          {
            order: order.id,
            paid: payment.amountMinor,
            paidCurrency: payment.currency,
            expected: order.amount_minor,
            currency: order.currency,
          },
          'paid amount differs from the order',
        );
        return 'amount_mismatch';
      }
      if (order.owned_id) {
        // Paid twice for one course (two tabs): keep the first, flag this one for a refund. Its code,
        // if any, goes back: the refund returns the money it was used for.
        await releaseCode(trx, order.id);
        await trx
          .updateTable('purchases')
          .set({
            status: 'failed',
            payment_id: payment.paymentId,
            payment_reference: payment.paymentReference ?? null,
            updated_at: new Date(),
          })
          .where('id', '=', order.id)
          .execute();
        log.error(
          { order: order.id, duplicates: order.owned_id },
          'paid twice for one course: refund the duplicate from the admin area',
        );
        return 'already_owned';
      }
      // Completed, returning what its mail says: a statement fewer than reading it again.
      const purchase = await trx
        .updateTable('purchases')
        .from('courses')
        .set({
          status: 'completed',
          payment_id: payment.paymentId,
          payment_reference: payment.paymentReference ?? null,
          paid_minor: payment.paidMinor ?? payment.amountMinor ?? order.amount_minor,
          download_token: newDownloadToken(),
          completed_at: new Date(),
          updated_at: new Date(),
          // Only an order with a tax line keeps evidence (jsonb: NULL || … stays NULL).
          ...(payment.cardCountry
            ? { tax_evidence: sql`purchases.tax_evidence || jsonb_build_object('cardCountry', ${payment.cardCountry}::text)` }
            : {}),
        })
        .whereRef('courses.id', '=', 'purchases.course_id')
        .where('purchases.id', '=', order.id)
        .returning(MAIL_PURCHASE)
        .executeTakeFirstOrThrow();
      if (order.discount_code_id) await keepCode(trx, order.id);
      // What the order is decides which reads follow: a course's order skips a bundle's and a gift's.
      const bundle = order.kind === 'bundle';
      // A gift's buyer gets the receipt; the recipient gets the course (a bundle's courses) on its day
      // (gifts.ts). A gift's order is in nobody's library (checkout.ts): an order with an owner is no gift.
      const gift = order.user_id === null ? await giftOfOrder(trx, order.id) : undefined;
      if (gift) {
        await issueReceipt(trx, order);
        await queueGiftReceiptMail(trx, order.id);
        return 'fulfilled';
      }
      if (bundle) await grantBundleCourses(trx, order.id);
      // The receipt's number last, with the mail: its lock queues every other fulfilment until this commits.
      await issueReceipt(trx, order, await materialsMail(trx, purchase, receiptNumberInMail(order), { bundle }));
      return 'fulfilled';
    });
}

/** A payment that will not complete (failed async payment, expired session): the pending order closes. */
export async function closeOrder(
  payment: Pick<Payment, 'eventId' | 'eventType' | 'paymentId'>,
  status: 'failed' | 'expired',
): Promise<void> {
  await db()
    .transaction()
    .execute(async (trx) => {
      if (payment.eventId && !(await recordEvent(trx, payment.eventId, payment.eventType ?? status, null))) return;
      const closed = await trx
        .updateTable('purchases')
        .set({ status, updated_at: new Date() })
        .where('payment_id', '=', payment.paymentId)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      // The discount code it held is free for someone else.
      if (closed) await releaseCode(trx, closed.id);
    });
}

/** Money returned or disputed: access ends. Whatever state the order was in, it never completes afterwards. */
export async function revokePurchase(
  target: { eventId?: string; eventType?: string; paymentReference?: string | undefined; orderId?: string | undefined },
  status: 'refunded' | 'disputed',
): Promise<'revoked' | 'duplicate_event' | 'unknown_order'> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const order = await lockOrder(trx, target);
      if (!order) return 'unknown_order';
      if (target.eventId && !(await recordEvent(trx, target.eventId, target.eventType ?? status, order.id)))
        return 'duplicate_event';
      await trx
        .updateTable('purchases')
        .set({
          status,
          payment_reference: sql`coalesce(payment_reference, ${target.paymentReference ?? null})`,
          updated_at: new Date(),
        })
        .where('id', '=', order.id)
        .execute();
      if (status === 'refunded') await issueCreditNote(trx, order.id);
      await revokeBundleCourses(trx, order.id, status);
      await revokeGift(trx, order.id, status);
      await announceRatingChange(trx, order.id);
      // The refund policy promises the buyer an e-mail; a repeated refund event sends none.
      if (status === 'refunded' && order.status !== 'refunded') await queueRefundMail(trx, order.id);
      return 'revoked';
    });
}

/**
 * A dispute closed in the shop's favour (`charge.dispute.closed`, status won): the buyer's access
 * returns, as the refund page says. Not if they have bought the course again meanwhile (they own it).
 */
export async function restoreDisputedPurchase(target: {
  eventId?: string;
  eventType?: string;
  paymentReference?: string | undefined;
  orderId?: string | undefined;
}): Promise<'restored' | 'unchanged' | 'duplicate_event' | 'unknown_order'> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const order = await lockOrder(trx, target);
      if (!order) return 'unknown_order';
      if (target.eventId && !(await recordEvent(trx, target.eventId, target.eventType ?? 'dispute_won', order.id)))
        return 'duplicate_event';
      if (order.status !== 'disputed') return 'unchanged';
      const restored = await trx
        .updateTable('purchases')
        .set({ status: 'completed', updated_at: new Date() })
        .where('id', '=', order.id)
        .where(notOwnedMeanwhile)
        .executeTakeFirst();
      if (Number(restored.numUpdatedRows) === 0) return 'unchanged';
      await restoreBundleCourses(trx, order.id);
      await restoreGift(trx, order.id);
      await announceRatingChange(trx, order.id);
      return 'restored';
    });
}

async function lockOrder(
  trx: Transaction<Database>,
  target: { paymentReference?: string | undefined; orderId?: string | undefined },
): Promise<{ id: string; status: string } | undefined> {
  return trx
    .selectFrom('purchases')
    .select(['id', 'status'])
    .where((eb) =>
      eb.or([
        ...(target.paymentReference ? [eb('payment_reference', '=', target.paymentReference)] : []),
        ...(target.orderId ? [eb('id', '=', target.orderId)] : []),
        eb.val(false),
      ]),
    )
    .forUpdate()
    .executeTakeFirst();
}

/** Records an event id; false when it was already handled (or is being handled by a concurrent delivery). */
async function recordEvent(
  trx: Transaction<Database>,
  eventId: string,
  type: string,
  purchaseId: string | null,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('payment_events')
    .values({ event_id: eventId, type, purchase_id: purchaseId })
    .onConflict((conflict) => conflict.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return Boolean(inserted);
}
