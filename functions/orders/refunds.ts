import { db } from '../db/database.ts';
import { providerOfSale } from '../payments/registry.ts';
import { revokePurchase } from './fulfilment.ts';
import { partsRefundedMinor } from './vat-refund.ts';
import { saleOf } from './sale-of.ts';
import { log } from '../log.ts';
import { conflict, invalid, notFound, ok, unavailable, type Result } from '../../src/lib/result.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * An admin refunds a sale through the provider it was paid with: a provider that confirms later
 * (Stripe's `charge.refunded`) leaves `refund_requested_at` set meanwhile; one that refunds at once
 * (iyzico, the demo) ends access now, with the same credit note. Free enrolments have nothing to refund.
 */
export async function refundPurchase(
  purchaseId: string,
): Promise<Result<{ id: string; status: 'refunded' | 'refund_requested' }>> {
  if (!isUuid(purchaseId)) return notFound;
  const purchase = await db()
    .selectFrom('purchases')
    .select([
      'id',
      'status',
      'provider',
      'amount_minor',
      'paid_minor',
      'currency',
      'payment_id',
      'payment_reference',
      'completed_at',
      'refund_requested_at',
    ])
    .where('id', '=', purchaseId)
    .executeTakeFirst();
  if (!purchase) return notFound;
  if (purchase.provider === 'free' || purchase.amount_minor === 0) return invalid('free', 'admin.people.refund.free');
  if (purchase.status !== 'completed') return conflict('not_completed', 'admin.people.refund.notCompleted');
  if (purchase.refund_requested_at) return conflict('already_requested', 'admin.people.refund.alreadyRequested');
  const provider = providerOfSale(purchase.provider);
  if (!provider) return conflict('provider_unavailable', 'admin.people.refund.providerUnavailable');

  const result = await provider.refund(saleOf(purchase, { partsRefundedMinor: await partsRefundedMinor(purchase.id) }));
  if (result.kind === 'refunded') {
    // No confirmation will follow: the refund is recorded now, credit note and mail included.
    const outcome = await revokePurchase({ orderId: purchase.id }, 'refunded');
    if (outcome === 'revoked') return ok({ id: purchase.id, status: 'refunded' });
    return unavailable('provider_failed', 'admin.people.refund.providerFailed');
  }
  if (result.kind === 'not_possible') return conflict('no_payment_intent', 'admin.people.refund.noPaymentIntent');
  if (result.kind === 'failed') {
    log.error({ purchase: purchase.id, provider: provider.name, reason: result.message }, 'the provider refused the refund');
    return unavailable('provider_failed', 'admin.people.refund.providerFailed');
  }
  await db()
    .updateTable('purchases')
    .set({ refund_requested_at: new Date(), updated_at: new Date() })
    .where('id', '=', purchase.id)
    .where('refund_requested_at', 'is', null)
    .execute();
  return ok({ id: purchase.id, status: 'refund_requested' });
}
