import { sql, type Expression, type Transaction } from 'kysely';
import { outboxRow, queueMail, type MailRenderedWhenSent } from '../mail/outbox.ts';
import type { Database } from '../db/schema.ts';
import { shopSettings } from '../shop/settings.ts';
import { taxSettings } from '../taxes/settings.ts';
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

/** Where a mail queued with its order's receipt (issueReceipt) prints a number it does not know yet. */
export const RECEIPT_NUMBER_SLOT = 'RECEIPT-NUMBER-SLOT';

type OrderToNumber = { id: string; amount_minor: number; receipt_number: number | null };

/** How a mail queued with `issueReceipt` prints its order's receipt number (none for a free order). */
export function receiptNumberInMail(order: OrderToNumber): string | undefined {
  if (order.receipt_number !== null) return documentNumber('receipt', order.receipt_number);
  return order.amount_minor === 0 ? undefined : RECEIPT_NUMBER_SLOT;
}

/**
 * Numbers the receipt of a paid order that has none yet (free enrolments are not sales), and queues
 * the mail that says it, if any, in the same statement: the counter's row lock, which queues every
 * other fulfilment until this transaction commits, is then held for the commit alone. The mail's
 * `RECEIPT_NUMBER_SLOT` becomes the number in what its worker renders. Call it last in the transaction.
 */
export async function issueReceipt(
  trx: Transaction<Database>,
  /** The order as the caller read it in this transaction (its row locked): not read again. */
  order: OrderToNumber,
  mail?: MailRenderedWhenSent,
): Promise<void> {
  if (order.amount_minor === 0 || order.receipt_number !== null) {
    if (mail) await queueMail(trx, mail);
    return;
  }
  const seller = JSON.stringify(await sellerNow(trx));
  const numbering = withNextNumber(trx, 'receipt').with('numbered', (query) =>
    query
      .updateTable('purchases')
      .set((eb) => ({ receipt_number: eb.selectFrom('counted').select('last_number'), seller }))
      .where('id', '=', order.id)
      .returning('receipt_number'),
  );
  if (!mail) {
    await numbering.selectFrom('numbered').select('receipt_number').execute();
    return;
  }
  const printed = documentNumberSql('receipt', sql.ref<number>('numbered.receipt_number'));
  await numbering
    .insertInto('mail_outbox')
    .values({
      ...outboxRow(mail),
      render_with: sql`(SELECT replace(${JSON.stringify(mail.renderWith)}, ${RECEIPT_NUMBER_SLOT}, ${printed})::jsonb FROM numbered)`,
    })
    .execute();
}

/** The seller as a receipt issued now names them: the shop's and the tax settings (from memory, settings-cache.ts). */
async function sellerNow(trx: Transaction<Database>): Promise<Seller> {
  const settings = await shopSettings(trx);
  const taxes = (await taxSettings(trx)).settings;
  return {
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

const PREFIXES: Record<DocumentKind, string> = { receipt: 'R-', credit_note: 'CN-' };
const DIGITS = 6;

/** "R-000042" / "CN-000007": how a number is printed and said to support. */
export function documentNumber(kind: DocumentKind, number: number): string {
  return `${PREFIXES[kind]}${String(number).padStart(DIGITS, '0')}`;
}

/** `documentNumber` in SQL, for a number a statement issues (lpad alone would cut a longer one). */
function documentNumberSql(kind: DocumentKind, number: Expression<number>) {
  return sql<string>`${PREFIXES[kind]} || lpad(${number}::text, greatest(${DIGITS}, length(${number}::text)), '0')`;
}
