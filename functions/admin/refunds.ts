import { revokePurchase } from '../checkout/fulfilment.ts';
import { db } from '../db/database.ts';
import { env } from '../env.ts';
import { stripe } from '../payments/stripe.ts';

/**
 * An admin refunds a sale.
 * - Stripe: the refund is asked of Stripe (idempotent per purchase) and the purchase marked
 *   `refund_requested_at`; access ends when Stripe confirms with `charge.refunded` (webhook.ts).
 * - Demo: no money moved and no webhook will come, so the purchase is revoked at once.
 * - Free: nothing to refund.
 */
export type RefundOutcome =
  | { kind: 'refunded' }
  | { kind: 'refund_requested' }
  | { kind: 'not_found' }
  | {
      kind: 'not_refundable';
      reason: 'free' | 'not_completed' | 'already_requested' | 'no_payment_intent' | 'provider_unavailable';
    }
  | { kind: 'provider_failed'; message: string };

export async function refundPurchase(purchaseId: string): Promise<RefundOutcome> {
  const purchase = await db()
    .selectFrom('purchases')
    .select(['id', 'status', 'provider', 'amount_minor', 'payment_intent_id', 'refund_requested_at'])
    .where('id', '=', purchaseId)
    .executeTakeFirst();
  if (!purchase) return { kind: 'not_found' };
  if (purchase.provider === 'free' || purchase.amount_minor === 0) return { kind: 'not_refundable', reason: 'free' };
  if (purchase.status !== 'completed') return { kind: 'not_refundable', reason: 'not_completed' };

  if (purchase.provider === 'demo') {
    const outcome = await revokePurchase({ orderId: purchase.id }, 'refunded');
    return outcome === 'revoked' ? { kind: 'refunded' } : { kind: 'not_found' };
  }

  if (purchase.refund_requested_at) return { kind: 'not_refundable', reason: 'already_requested' };
  if (!purchase.payment_intent_id) return { kind: 'not_refundable', reason: 'no_payment_intent' };
  if (!env().STRIPE_SECRET_KEY) return { kind: 'not_refundable', reason: 'provider_unavailable' };
  try {
    // The same key for every attempt: a retry after a lost answer never refunds twice.
    await stripe().refunds.create({ payment_intent: purchase.payment_intent_id }, { idempotencyKey: `refund-${purchase.id}` });
  } catch (error) {
    const message = (error as Error).message;
    console.error(`[refunds] purchase ${purchase.id}: Stripe refused the refund: ${message}`);
    return { kind: 'provider_failed', message };
  }
  await db()
    .updateTable('purchases')
    .set({ refund_requested_at: new Date(), updated_at: new Date() })
    .where('id', '=', purchase.id)
    .where('refund_requested_at', 'is', null)
    .execute();
  return { kind: 'refund_requested' };
}
