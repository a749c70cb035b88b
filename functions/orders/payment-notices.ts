import type Stripe from 'stripe';
import { closeOrder, fulfilPayment, restoreDisputedPurchase, revokePurchase } from '../checkout/fulfilment.ts';
import { env } from '../env.ts';
import { stripe } from './stripe.ts';

/**
 * What a verified Stripe event does. Delivery is at least once and in no set order: every branch is
 * idempotent by event id and by order, and events we do not act on are acknowledged and ignored.
 * Returns `retry` when the event cannot be applied yet (Stripe will deliver it again).
 */
export type WebhookOutcome = 'handled' | 'ignored' | 'retry';

export async function handleStripeEvent(event: Stripe.Event): Promise<WebhookOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // "completed" with payment still processing (bank debits) waits for async_payment_succeeded.
      if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return 'handled';
      const outcome = await fulfilPayment({
        eventId: event.id,
        eventType: event.type,
        paymentId: session.id,
        orderId: session.metadata?.order_id ?? session.client_reference_id ?? undefined,
        paymentIntentId: typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id,
        amountMinor: session.amount_total ?? undefined,
        currency: session.currency ?? undefined,
      });
      if (outcome === 'unknown_order') return session.metadata?.order_id ? 'retry' : 'ignored';
      return 'handled';
    }
    case 'checkout.session.async_payment_failed':
      await closeOrder({ eventId: event.id, eventType: event.type, paymentId: event.data.object.id }, 'failed');
      return 'handled';
    case 'checkout.session.expired':
      await closeOrder({ eventId: event.id, eventType: event.type, paymentId: event.data.object.id }, 'expired');
      return 'handled';
    case 'charge.refunded':
    case 'charge.dispute.created': {
      const object = event.data.object;
      const paymentIntentId = typeof object.payment_intent === 'string' ? object.payment_intent : object.payment_intent?.id;
      const orderId = object.metadata?.order_id ?? (paymentIntentId ? await orderOfPaymentIntent(paymentIntentId) : undefined);
      const status = event.type === 'charge.refunded' ? 'refunded' : 'disputed';
      if (event.type === 'charge.refunded' && !(object as Stripe.Charge).refunded) return 'handled'; // partial refund: access stays
      const outcome = await revokePurchase({ eventId: event.id, eventType: event.type, paymentIntentId, orderId }, status);
      return outcome === 'unknown_order' ? (orderId ? 'retry' : 'ignored') : 'handled';
    }
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      if (dispute.status !== 'won') return 'handled'; // lost: the money went back; access stays revoked
      const paymentIntentId = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
      const orderId = paymentIntentId ? await orderOfPaymentIntent(paymentIntentId) : undefined;
      const outcome = await restoreDisputedPurchase({ eventId: event.id, eventType: event.type, paymentIntentId, orderId });
      return outcome === 'unknown_order' ? (orderId ? 'retry' : 'ignored') : 'handled';
    }
    default:
      return 'ignored';
  }
}

/** The order id we put on a PaymentIntent's metadata, for charges that do not carry it themselves. */
async function orderOfPaymentIntent(paymentIntentId: string): Promise<string | undefined> {
  if (!env().STRIPE_SECRET_KEY) return undefined;
  const intent = await stripe().paymentIntents.retrieve(paymentIntentId);
  return intent.metadata?.order_id;
}
