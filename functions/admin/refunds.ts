import { db } from '../db/database.ts';
import { providerOfSale } from '../payments/provider.ts';

/**
 * An admin refunds a sale through the provider it was paid with: Stripe refunds later confirm by
 * webhook (`refund_requested_at` is set meanwhile), the demo provider refunds at once. Free
 * enrolments have nothing to refund.
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
  if (purchase.refund_requested_at) return { kind: 'not_refundable', reason: 'already_requested' };
  const provider = providerOfSale(purchase.provider);
  if (!provider) return { kind: 'not_refundable', reason: 'provider_unavailable' };

  const result = await provider.refund({ purchaseId: purchase.id, paymentIntentId: purchase.payment_intent_id });
  if (result.kind === 'refunded') return { kind: 'refunded' };
  if (result.kind === 'not_possible') return { kind: 'not_refundable', reason: result.reason };
  if (result.kind === 'failed') {
    console.error(`[refunds] purchase ${purchase.id}: the ${provider.name} provider refused the refund: ${result.message}`);
    return { kind: 'provider_failed', message: result.message };
  }
  await db()
    .updateTable('purchases')
    .set({ refund_requested_at: new Date(), updated_at: new Date() })
    .where('id', '=', purchase.id)
    .where('refund_requested_at', 'is', null)
    .execute();
  return { kind: 'refund_requested' };
}
