import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { notFound, ok, type Result } from '../../src/lib/result.ts';
import { vatNumberCountry } from '../../src/lib/vat-number.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { checkVatNumberWithVies, type ViesAnswer } from './vies.ts';

/**
 * Orders that paid VAT because VIES did not answer at checkout (their evidence says `unavailable`),
 * for the admin to check the number again. When VIES now says it is valid, the buyer was a business
 * owed a reverse charge: the order records the new answer, and the admin can give the VAT back
 * (orders/vat-refund.ts), which the list then shows.
 */
export interface UnconfirmedVatNumber {
  orderId: string;
  receiptNumber: number;
  businessName: string;
  vatNumber: string;
  currency: string;
  taxMinor: number;
  /** The admin's latest check, if any. */
  recheck: ViesAnswer | null;
  /** The VAT given back, once it was. */
  vatRefund: { amountMinor: number; creditNoteNumber: number; refundedAt: Date } | null;
}

type Evidence = { vatNumber?: string; businessName?: string; vies?: ViesAnswer; viesRecheck?: ViesAnswer };

/** The orders charged VAT because VIES did not answer; `scheme` is what their tax line says. */
const UNCONFIRMED_SCHEMES = ['eu_b2c', 'eu_home'];

function unconfirmed() {
  return db()
    .selectFrom('purchases')
    .leftJoin('vat_refunds', 'vat_refunds.purchase_id', 'purchases.id')
    .select(['id', 'receipt_number', 'purchases.currency', 'tax_minor', 'tax_evidence'])
    .select(['vat_refunds.amount_minor as refund_minor', 'vat_refunds.credit_note_number', 'vat_refunds.refunded_at'])
    .where('status', '=', 'completed')
    .where('receipt_number', 'is not', null)
    .where('tax_scheme', 'in', UNCONFIRMED_SCHEMES)
    .where(sql<boolean>`tax_evidence #>> '{vies,check}' = 'unavailable'`);
}

type Row = Awaited<ReturnType<ReturnType<typeof unconfirmed>['executeTakeFirstOrThrow']>>;

function toUnconfirmed(row: Row): UnconfirmedVatNumber {
  const evidence = (row.tax_evidence ?? {}) as Evidence;
  return {
    orderId: row.id,
    receiptNumber: row.receipt_number!,
    businessName: evidence.businessName ?? '',
    vatNumber: evidence.vatNumber ?? '',
    currency: row.currency,
    taxMinor: row.tax_minor ?? 0,
    recheck: evidence.viesRecheck ?? null,
    vatRefund:
      row.refund_minor === null
        ? null
        : { amountMinor: row.refund_minor, creditNoteNumber: row.credit_note_number!, refundedAt: row.refunded_at! },
  };
}

export async function unconfirmedVatNumbers(limit = 200): Promise<UnconfirmedVatNumber[]> {
  return (await unconfirmed().orderBy('receipt_number').limit(limit).execute()).map(toUnconfirmed);
}

/**
 * The member state of an order's VAT number when the order is owed its VAT back: VAT was charged
 * because VIES did not answer at checkout, and the admin's later check found the number valid.
 */
export function reverseChargeFoundLater(order: { tax_scheme: string | null; tax_evidence: unknown }): string | undefined {
  const evidence = (order.tax_evidence ?? {}) as Evidence;
  if (!UNCONFIRMED_SCHEMES.includes(order.tax_scheme ?? '') || evidence.vies?.check !== 'unavailable') return undefined;
  if (evidence.viesRecheck?.check !== 'valid') return undefined;
  return vatNumberCountry(evidence.vatNumber ?? '');
}

/** Asks VIES again about an order's VAT number and records its answer (with its time) on the order's evidence. */
export async function recheckVatNumber(orderId: string): Promise<Result<ViesAnswer>> {
  const row = isUuid(orderId) ? await unconfirmed().where('id', '=', orderId).executeTakeFirst() : undefined;
  const order = row && toUnconfirmed(row);
  const country = order ? vatNumberCountry(order.vatNumber) : undefined;
  if (!order || !country) return notFound;
  const answer = await checkVatNumberWithVies(country, order.vatNumber);
  await db()
    .updateTable('purchases')
    .set({
      tax_evidence: sql`tax_evidence || jsonb_build_object('viesRecheck', ${JSON.stringify(answer)}::jsonb)`,
      updated_at: new Date(),
    })
    .where('id', '=', orderId)
    .execute();
  return ok(answer);
}
