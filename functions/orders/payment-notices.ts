import type { NoticeEvent, PaidPayment, PaymentNotice } from '../payments/provider.ts';
import { closeOrder, fulfilPayment, restoreDisputedPurchase, revokePurchase } from './fulfilment.ts';

/**
 * What a provider's notice does to an order, whichever way it came (webhook, callback, reconcile).
 * Every branch is idempotent by event id and by order. Returns `retry` when the notice names an
 * order not written yet (the provider delivers again), `ignored` when it is not about ours.
 */
export type NoticeOutcome = 'handled' | 'ignored' | 'retry';

/** What a provider says was paid, as fulfilment checks it against the order. */
export function paymentOf(notice: PaidPayment) {
  return {
    paymentId: notice.checkoutReference,
    orderId: notice.orderId,
    paymentReference: notice.paymentReference,
    amountMinor: notice.amountMinor,
    currency: notice.currency,
    paidMinor: notice.paidMinor,
    cardCountry: notice.cardCountry,
  };
}

export async function applyPaymentNotice(notice: PaymentNotice): Promise<NoticeOutcome> {
  switch (notice.kind) {
    case 'paid': {
      const outcome = await fulfilPayment({ ...recorded(notice.event), ...paymentOf(notice) });
      if (outcome === 'unknown_order') return notice.orderId ? 'retry' : 'ignored';
      return 'handled';
    }
    case 'closed':
      await closeOrder({ ...recorded(notice.event), paymentId: notice.checkoutReference }, notice.status);
      return 'handled';
    case 'refunded':
    case 'disputed':
    case 'dispute_won': {
      const target = {
        ...recorded(notice.event),
        paymentReference: notice.paymentReference,
        orderId: notice.orderId,
      };
      const outcome =
        notice.kind === 'dispute_won' ? await restoreDisputedPurchase(target) : await revokePurchase(target, notice.kind);
      return outcome === 'unknown_order' ? (notice.orderId ? 'retry' : 'ignored') : 'handled';
    }
    case 'waiting':
      return 'handled';
    case 'ignored':
      return 'ignored';
  }
}

/** The event a notice came with, in the ledger's words; none for a callback or a look-up. */
const recorded = (event: NoticeEvent | undefined) => (event ? { eventId: event.id, eventType: event.type } : {});
