import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { shopSettings } from '../shop/settings.ts';
import { taxSettings } from '../taxes/settings.ts';
import type { ShopSettings } from '../../src/lib/admin/shop-settings.schema.ts';
import type { TaxSettings } from '../../src/lib/admin/tax-settings.schema.ts';

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

/**
 * The kind's counter raised, for the statement that writes the number into its order: one statement,
 * so the counter's row lock (which queues every other fulfilment until this transaction commits) is
 * taken as late as possible.
 */
function withNextNumber(trx: Transaction<Database>, kind: DocumentKind) {
  return trx.with('counted', (query) =>
    query
      .insertInto('document_counters')
      .values({ kind, last_number: 1 })
      .onConflict((conflict) => conflict.column('kind').doUpdateSet({ last_number: sql`document_counters.last_number + 1` }))
      .returning('last_number'),
  );
}

/**
 * Numbers the receipt of a paid order that has none yet (free enrolments are not sales). Returns the
 * order's receipt number (null for a free order). Call it last in the transaction, after the reads
 * of the work that follows it (materials.ts prepareMaterialsMail).
 */
export async function issueReceipt(
  trx: Transaction<Database>,
  orderId: string,
  /** The order's amount and number as the caller read them in this transaction (its row locked): not read again. */
  known?: { amount_minor: number; receipt_number: number | null },
): Promise<number | null> {
  const order =
    known ??
    (await trx
      .selectFrom('purchases')
      .select(['amount_minor', 'receipt_number'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow());
  if (order.amount_minor === 0 || order.receipt_number !== null) return order.receipt_number;
  const { settings, taxes } = await sellerSettings(trx);
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
  const numbered = await withNextNumber(trx, 'receipt')
    .updateTable('purchases')
    .set((eb) => ({ receipt_number: eb.selectFrom('counted').select('last_number'), seller: JSON.stringify(seller) }))
    .where('id', '=', orderId)
    .returning('receipt_number')
    .executeTakeFirstOrThrow();
  return numbered.receipt_number;
}

/** The shop's and the tax settings, from memory (settings-cache.ts), else read in the transaction. */
async function sellerSettings(trx: Transaction<Database>): Promise<{ settings: ShopSettings; taxes: TaxSettings }> {
  return { settings: await shopSettings(trx), taxes: (await taxSettings(trx)).settings };
}

/** A refunded order's credit note, referencing its receipt; once. */
export async function issueCreditNote(trx: Transaction<Database>, orderId: string): Promise<void> {
  const order = await trx
    .selectFrom('purchases')
    .select(['receipt_number', 'credit_note_number'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  if (order.receipt_number === null || order.credit_note_number !== null) return;
  await withNextNumber(trx, 'credit_note')
    .updateTable('purchases')
    .set((eb) => ({ credit_note_number: eb.selectFrom('counted').select('last_number'), refunded_at: new Date() }))
    .where('id', '=', orderId)
    .execute();
}

/** A credit note for part of a sale (its VAT given back, orders/vat-refund.ts), in the credit notes' sequence. */
export async function nextCreditNoteNumber(trx: Transaction<Database>): Promise<number> {
  const counted = await withNextNumber(trx, 'credit_note').selectFrom('counted').select('last_number').executeTakeFirstOrThrow();
  return counted.last_number;
}

/** "R-000042" / "CN-000007": how a number is printed and said to support. */
export function documentNumber(kind: DocumentKind, number: number): string {
  return `${kind === 'receipt' ? 'R' : 'CN'}-${String(number).padStart(6, '0')}`;
}
