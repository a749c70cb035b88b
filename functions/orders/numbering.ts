import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { readSettings } from '../shop/settings.ts';
import { readTaxSettings } from '../taxes/settings.ts';
import type { ShopSettings } from '../../src/lib/admin/shop-settings.schema.ts';

/**
 * Receipt and credit-note numbers: one counter row per kind, raised in the transaction that
 * completes or refunds the order. The row lock queues concurrent fulfilments, and a transaction
 * that rolls back takes its number with it: numbers are gap-free and never shared.
 */
export type DocumentKind = 'receipt' | 'credit_note';

/** The seller as a receipt names them, frozen when it is issued. */
export type Seller = Pick<
  ShopSettings,
  'shopName' | 'legalName' | 'address' | 'supportEmail' | 'taxNumber' | 'taxRatePercent'
> & {
  /** From the tax settings (absent on receipts issued before them). */
  country?: string;
  vatNumber?: string;
  taxOffice?: string;
};

async function nextNumber(trx: Transaction<Database>, kind: DocumentKind): Promise<number> {
  const row = await trx
    .insertInto('document_counters')
    .values({ kind, last_number: 1 })
    .onConflict((conflict) => conflict.column('kind').doUpdateSet({ last_number: sql`document_counters.last_number + 1` }))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return row.last_number;
}

/** Numbers the receipt of a paid order that has none yet (free enrolments are not sales). */
export async function issueReceipt(trx: Transaction<Database>, orderId: string): Promise<void> {
  const order = await trx
    .selectFrom('purchases')
    .select(['amount_minor', 'receipt_number'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (order.amount_minor === 0 || order.receipt_number !== null) return;
  const [{ settings }, { settings: taxes }] = await Promise.all([readSettings(trx), readTaxSettings(trx)]);
  const seller: Seller = {
    shopName: settings.shopName,
    legalName: settings.legalName,
    address: settings.address,
    supportEmail: settings.supportEmail,
    taxNumber: settings.taxNumber,
    taxRatePercent: settings.taxRatePercent,
    country: taxes.sellerCountry,
    vatNumber: taxes.vatNumber,
    taxOffice: taxes.taxOffice,
  };
  await trx
    .updateTable('purchases')
    .set({ receipt_number: await nextNumber(trx, 'receipt'), seller: JSON.stringify(seller) })
    .where('id', '=', orderId)
    .execute();
}

/** A refunded order's credit note, referencing its receipt; once. */
export async function issueCreditNote(trx: Transaction<Database>, orderId: string): Promise<void> {
  const order = await trx
    .selectFrom('purchases')
    .select(['receipt_number', 'credit_note_number'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (order.receipt_number === null || order.credit_note_number !== null) return;
  await trx
    .updateTable('purchases')
    .set({ credit_note_number: await nextNumber(trx, 'credit_note'), refunded_at: new Date() })
    .where('id', '=', orderId)
    .execute();
}

/** A credit note for part of a sale (its VAT given back, orders/vat-refund.ts), in the credit notes' sequence. */
export function nextCreditNoteNumber(trx: Transaction<Database>): Promise<number> {
  return nextNumber(trx, 'credit_note');
}

/** "R-000042" / "CN-000007": how a number is printed and said to support. */
export function documentNumber(kind: DocumentKind, number: number): string {
  return `${kind === 'receipt' ? 'R' : 'CN'}-${String(number).padStart(6, '0')}`;
}
