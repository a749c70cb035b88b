import { db } from '../db/database.ts';
import { configuredProviders } from '../payments/registry.ts';
import { fulfilPayment, type FulfilmentOutcome } from './fulfilment.ts';
import { paymentOf } from './payment-notices.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The backstop for lost notifications: every configured provider is asked about the checkouts of
 * the last `days` days, and every paid one goes through fulfilment again. Fulfilment is idempotent,
 * so running this twice changes nothing.
 */
export async function reconcilePaidSessions(days: number): Promise<Record<FulfilmentOutcome | 'not_paid', number>> {
  const counts: Record<FulfilmentOutcome | 'not_paid', number> = {
    fulfilled: 0,
    duplicate_event: 0,
    already_done: 0,
    unknown_order: 0,
    amount_mismatch: 0,
    order_mismatch: 0,
    already_owned: 0,
    not_paid: 0,
  };
  const since = new Date(Date.now() - days * DAY_MS);
  for (const provider of configuredProviders()) {
    const pending = await db()
      .selectFrom('purchases')
      .select('payment_id')
      .where('provider', '=', provider.name)
      .where('status', '=', 'pending')
      .where('payment_id', 'is not', null)
      .where('created_at', '>=', since)
      .execute();
    const pendingReferences = pending.map((row) => row.payment_id!);
    for await (const notice of provider.reconcile({ since, pendingReferences })) {
      if (notice.kind !== 'paid') {
        counts.not_paid++;
        continue;
      }
      const outcome = await fulfilPayment(paymentOf(notice));
      counts[outcome]++;
    }
  }
  return counts;
}
