import type { Sale } from '../payments/provider.ts';

/** The order's columns a provider's refund needs. */
export interface SoldOrder {
  id: string;
  payment_id: string | null;
  payment_reference: string | null;
  amount_minor: number;
  paid_minor: number | null;
  currency: string;
  completed_at: Date | null;
}

/** An order as its provider is asked to refund it (whole, or `partMinor` of it). */
export function saleOf(order: SoldOrder, refund: Pick<Sale, 'partMinor' | 'partsRefundedMinor'>): Sale {
  return {
    orderId: order.id,
    checkoutReference: order.payment_id,
    paymentReference: order.payment_reference,
    amountMinor: order.amount_minor,
    paidMinor: order.paid_minor ?? order.amount_minor,
    currency: order.currency,
    completedAt: order.completed_at,
    ...refund,
  };
}
