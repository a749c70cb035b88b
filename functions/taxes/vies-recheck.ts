import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { notFound, ok, type Result } from '../../src/lib/result.ts';
import { vatNumberCountry } from '../../src/lib/vat-number.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { checkVatNumberWithVies, type ViesAnswer } from './vies.ts';

/**
 * Orders that paid VAT because VIES did not answer at checkout (their evidence says `unavailable`),
 * for the admin to check the number again. When VIES now says it is valid, the buyer was a business
 * owed a reverse charge: the order records the new answer and the VAT it is owed back. The refund of
 * that part is the seller's to make (the shop's refunds return whole orders, with one credit note).
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
}

type Evidence = { vatNumber?: string; businessName?: string; viesRecheck?: ViesAnswer };

function unconfirmed() {
  return db()
    .selectFrom('purchases')
    .select(['id', 'receipt_number', 'currency', 'tax_minor', 'tax_evidence'])
    .where('status', '=', 'completed')
    .where('receipt_number', 'is not', null)
    .where('tax_scheme', 'in', ['eu_b2c', 'eu_home'])
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
  };
}

export async function unconfirmedVatNumbers(limit = 200): Promise<UnconfirmedVatNumber[]> {
  return (await unconfirmed().orderBy('receipt_number').limit(limit).execute()).map(toUnconfirmed);
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
