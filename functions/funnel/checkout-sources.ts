import { db } from '../db/database.ts';
import { hasSource, type FunnelSource } from '../../src/lib/funnel-source.ts';

/**
 * Where a started checkout came from, when it came tagged (its course page's source, carried in the
 * checkout page's address): checkouts and payments are counted from purchases, joined to this row by
 * the checkout's payment id (functions/funnel/report.ts). Nothing about the buyer is added.
 */
export async function recordCheckoutSource(paymentId: string, source: FunnelSource): Promise<void> {
  if (!hasSource(source)) return;
  await db()
    .insertInto('funnel_checkout_sources')
    .values({
      payment_id: paymentId,
      utm_source: source.utmSource,
      utm_medium: source.utmMedium,
      utm_campaign: source.utmCampaign,
      referrer_host: source.referrerHost,
    })
    .onConflict((conflict) => conflict.column('payment_id').doNothing())
    .execute();
}
