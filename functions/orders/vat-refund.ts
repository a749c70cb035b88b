import type { Transaction } from 'kysely';
import { db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { providerOfSale } from '../payments/registry.ts';
import { reverseChargeFoundLater } from '../taxes/vies-recheck.ts';
import { nextCreditNoteNumber } from './numbering.ts';
import { saleOf } from './sale-of.ts';
import { log } from '../log.ts';
import { conflict, notFound, ok, unavailable, type Result } from '../../src/lib/result.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * Gives back the VAT of a sale whose buyer's VAT number VIES could not check at checkout and
 * confirmed when the admin checked it again (Admin → Taxes): the sale was a reverse charge. Exactly
 * the tax is refunded through the order's provider; the order keeps its access, the VAT's credit
 * note takes the next credit note number, the receipt shows it, and the tax report moves the sale
 * from the consumer's line to the reverse charge's (taxes/report.ts). Once per order.
 */
export interface VatRefund {
  amountMinor: number;
  currency: string;
  creditNoteNumber: number;
  refundedAt: Date;
}

export async function refundVat(orderId: string): Promise<Result<VatRefund>> {
  if (!isUuid(orderId)) return notFound;
  // The order stays locked while its provider is asked: a second click waits for the first, then
  // finds its refund; a provider that refuses leaves nothing written.
  return db()
    .transaction()
    .execute(async (trx) => {
      const order = await lockedOrder(trx, orderId);
      if (!order) return notFound;
      const made = await refundOf(trx, orderId);
      if (made) return ok(made);
      const country = reverseChargeFoundLater(order);
      if (!country || !order.tax_minor) return conflict('vat_not_owed', 'admin.taxReport.vies.refundNotOwed');
      if (order.status !== 'completed') return conflict('not_completed', 'admin.people.refund.notCompleted');
      if (order.refund_requested_at) return conflict('already_requested', 'admin.people.refund.alreadyRequested');
      const provider = providerOfSale(order.provider);
      if (!provider) return conflict('provider_unavailable', 'admin.people.refund.providerUnavailable');
      const result = await provider.refund(saleOf(order, { partMinor: order.tax_minor }));
      if (result.kind === 'not_possible') return conflict('no_payment_intent', 'admin.people.refund.noPaymentIntent');
      if (result.kind !== 'refunded') {
        log.error({ purchase: order.id, provider: provider.name, result }, 'the provider refused the VAT refund');
        return unavailable('provider_failed', 'admin.people.refund.providerFailed');
      }
      await trx
        .insertInto('vat_refunds')
        .values({
          purchase_id: order.id,
          amount_minor: order.tax_minor,
          currency: order.currency,
          country,
          credit_note_number: await nextCreditNoteNumber(trx),
        })
        .execute();
      return ok((await refundOf(trx, orderId))!);
    });
}

function lockedOrder(trx: Transaction<Database>, orderId: string) {
  return trx
    .selectFrom('purchases')
    .select(['id', 'status', 'provider', 'amount_minor', 'paid_minor', 'currency', 'payment_id', 'payment_reference'])
    .select(['completed_at', 'refund_requested_at', 'tax_scheme', 'tax_minor', 'tax_evidence'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
}

async function refundOf(trx: Transaction<Database>, orderId: string): Promise<VatRefund | undefined> {
  const row = await trx.selectFrom('vat_refunds').selectAll().where('purchase_id', '=', orderId).executeTakeFirst();
  return (
    row && {
      amountMinor: row.amount_minor,
      currency: row.currency,
      creditNoteNumber: row.credit_note_number,
      refundedAt: row.refunded_at,
    }
  );
}

/** What parts of an order were refunded already (its VAT), for a later full refund to return the rest. */
export async function partsRefundedMinor(orderId: string): Promise<number> {
  const row = await db().selectFrom('vat_refunds').select('amount_minor').where('purchase_id', '=', orderId).executeTakeFirst();
  return row?.amount_minor ?? 0;
}
