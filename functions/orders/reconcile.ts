import { fulfilPayment, type FulfilmentOutcome } from '../checkout/fulfilment.ts';
import { stripe } from './stripe.ts';

const DAY_S = 24 * 60 * 60;

/**
 * The backstop for lost webhooks: every Checkout Session paid in the last `days` days goes through
 * fulfilment again. Fulfilment is idempotent, so running this twice changes nothing.
 */
export async function reconcilePaidSessions(days: number): Promise<Record<FulfilmentOutcome | 'not_paid', number>> {
  const counts: Record<FulfilmentOutcome | 'not_paid', number> = {
    fulfilled: 0,
    duplicate_event: 0,
    already_done: 0,
    unknown_order: 0,
    amount_mismatch: 0,
    already_owned: 0,
    not_paid: 0,
  };
  const since = Math.floor(Date.now() / 1000) - days * DAY_S;
  for await (const session of stripe().checkout.sessions.list({ created: { gte: since }, limit: 100 })) {
    if (session.payment_status !== 'paid') {
      counts.not_paid++;
      continue;
    }
    const outcome = await fulfilPayment({
      paymentId: session.id,
      orderId: session.metadata?.order_id ?? session.client_reference_id ?? undefined,
      paymentIntentId: typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id,
      amountMinor: session.amount_total ?? undefined,
      currency: session.currency ?? undefined,
    });
    counts[outcome]++;
  }
  return counts;
}
