import { sql } from 'kysely';
import { courseTitleIn } from '../catalogue/bundle-texts.ts';
import { db } from '../db/database.ts';
import { inLibraryOf } from './library.ts';
import { giftBoughtBy } from './gift-rows.ts';
import { orderReference } from './orders.ts';
import { documentNumber, type DocumentKind, type Seller } from './numbering.ts';
import { startPdf } from '../pdf/document.ts';
import { getT } from '../../src/i18n/i18n.ts';
import { asLanguage } from '../../src/i18n/languages.ts';
import { formatMoney } from '../../src/lib/money.ts';
import { formatDate } from '../../src/lib/dates.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { documentTitle, listedMinor, orderTaxOf, taxRows, vatCreditRows, type OrderTax, type VatCredit } from './receipt-tax.ts';

/**
 * A buyer's receipt (and, after a refund, the credit note that cancels it) as an A4 PDF in the
 * order's language: seller and buyer, the course, price, discount, the tax the price includes,
 * total, date and payment reference. Made on request from the order, which keeps the seller as
 * they were named when the receipt was issued.
 */
export interface ReceiptOrder {
  id: string;
  language: string;
  email: string;
  fullName: string;
  courseTitle: string;
  amountMinor: number;
  /** Charged to the card, instalment interest included; null when no provider said so (free, older orders). */
  paidMinor: number | null;
  discountMinor: number;
  discountCode: string | null;
  currency: string;
  completedAt: Date | null;
  refundedAt: Date | null;
  paymentReference: string;
  receiptNumber: number;
  creditNoteNumber: number | null;
  seller: Seller;
  /** The tax line stored at checkout; null on orders from before it (their receipts use the seller's single rate). */
  tax: OrderTax | null;
  /** The e-Arşiv invoice a seller in Türkiye issued for the order and recorded in Admin → Taxes. */
  eArsivNumber: string | null;
  /** The VAT given back once the buyer's VAT number checked (orders/vat-refund.ts). */
  vatRefund: VatCredit | null;
}

type Finder = (query: ReturnType<typeof baseQuery>) => ReturnType<typeof baseQuery>;

function baseQuery() {
  return db()
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'purchases.id',
      'purchases.language',
      'purchases.email',
      'purchases.full_name',
      // A bundle's title in the order's language (decision 44).
      courseTitleIn(sql.ref('purchases.language')).as('title'),
      'purchases.amount_minor',
      'purchases.paid_minor',
      'purchases.discount_minor',
      'purchases.discount_code',
      'purchases.currency',
      'purchases.completed_at',
      'purchases.refunded_at',
      'purchases.payment_reference',
      'purchases.payment_id',
      'purchases.receipt_number',
      'purchases.credit_note_number',
      'purchases.seller',
      'purchases.tax_scheme',
      'purchases.tax_country',
      'purchases.tax_rate_hundredths',
      'purchases.net_minor',
      'purchases.tax_minor',
      'purchases.tax_evidence',
      'purchases.e_arsiv_number',
    ])
    .leftJoin('vat_refunds', 'vat_refunds.purchase_id', 'purchases.id')
    .select(['vat_refunds.amount_minor as vat_refund_minor', 'vat_refunds.credit_note_number as vat_credit_note_number'])
    .select('vat_refunds.refunded_at as vat_refunded_at')
    .where('purchases.receipt_number', 'is not', null);
}

async function findOrder(narrow: Finder): Promise<ReceiptOrder | undefined> {
  const row = await narrow(baseQuery()).executeTakeFirst();
  if (!row || row.receipt_number === null) return undefined;
  return {
    id: row.id,
    language: row.language,
    email: row.email,
    fullName: row.full_name,
    courseTitle: row.title,
    amountMinor: row.amount_minor,
    paidMinor: row.paid_minor,
    discountMinor: row.discount_minor,
    discountCode: row.discount_code,
    currency: row.currency,
    completedAt: row.completed_at,
    refundedAt: row.refunded_at,
    paymentReference: row.payment_reference ?? row.payment_id ?? orderReference(row.id),
    receiptNumber: row.receipt_number,
    creditNoteNumber: row.credit_note_number,
    seller: row.seller as Seller,
    tax: orderTaxOf(row),
    eArsivNumber: row.e_arsiv_number,
    vatRefund:
      row.vat_refund_minor === null
        ? null
        : { amountMinor: row.vat_refund_minor, creditNoteNumber: row.vat_credit_note_number!, refundedAt: row.vat_refunded_at! },
  };
}

/** A receipt in the signed-in buyer's library (by the same rule as their downloads), or of a gift they bought. */
export function receiptOfBuyer(purchaseId: string, userId: string): Promise<ReceiptOrder | undefined> {
  if (!isUuid(purchaseId)) return Promise.resolve(undefined);
  return findOrder((query) =>
    query.where('purchases.id', '=', purchaseId).where((eb) => eb.or([inLibraryOf(userId)(eb), giftBoughtBy(userId)(eb)])),
  );
}

/** A receipt by the order's permanent download link (the confirmation e-mail's receipt link). */
export function receiptByToken(token: string): Promise<ReceiptOrder | undefined> {
  if (!/^[\w-]{20,100}$/.test(token)) return Promise.resolve(undefined);
  return findOrder((query) => query.where('purchases.download_token', '=', token));
}

/** Any receipt, for the admin's sales list. */
export function receiptForAdmin(purchaseId: string): Promise<ReceiptOrder | undefined> {
  if (!isUuid(purchaseId)) return Promise.resolve(undefined);
  return findOrder((query) => query.where('purchases.id', '=', purchaseId));
}

export function documentFileName(order: ReceiptOrder, kind: DocumentKind): string {
  const number = kind === 'receipt' ? order.receiptNumber : order.creditNoteNumber!;
  return `${documentNumber(kind, number)}.pdf`;
}

/** The tax a gross price includes at a rate: 20 % of €12.00 gross is €2.00. */
export function includedTax(grossMinor: number, ratePercent: number): number {
  return Math.round((grossMinor * ratePercent) / (100 + ratePercent));
}

export function renderReceiptPdf(order: ReceiptOrder, kind: DocumentKind): Promise<Buffer> {
  const language = asLanguage(order.language);
  const t = getT(language);
  const money = (minor: number) => formatMoney(minor, order.currency, language);
  const sign = kind === 'credit_note' ? -1 : 1;
  const number = documentNumber(kind, kind === 'receipt' ? order.receiptNumber : order.creditNoteNumber!);
  const { seller, tax } = order;
  const title = documentTitle(t, seller, kind, order.eArsivNumber);
  const issued = kind === 'receipt' ? order.completedAt : order.refundedAt;

  const { doc, done } = startPdf({
    lang: language,
    info: { Title: `${title} ${number}`, Author: seller.legalName || seller.shopName },
  });

  doc.font('bold').fontSize(22).text(title);
  doc.font('regular').fontSize(11).moveDown(0.5);
  const line = (label: string, value: string) =>
    doc.font('bold').text(`${label}: `, { continued: true }).font('regular').text(value);
  line(t('receipt.number'), number);
  if (kind === 'credit_note') line(t('receipt.cancels'), documentNumber('receipt', order.receiptNumber));
  line(t('receipt.date'), formatDate(issued ?? new Date(), language));
  line(t('receipt.order'), orderReference(order.id));
  line(t('receipt.paymentReference'), order.paymentReference);
  if (order.eArsivNumber && kind === 'receipt') line(t('receipt.eArsivNumber'), order.eArsivNumber);

  doc.moveDown();
  doc.font('bold').text(t('receipt.seller'));
  doc.font('regular');
  for (const value of [seller.legalName || seller.shopName, seller.address, seller.supportEmail]) if (value) doc.text(value);
  if (seller.taxNumber) doc.text(`${t('receipt.taxNumber')}: ${seller.taxNumber}`);
  if (seller.taxOffice) doc.text(`${t('receipt.taxOffice')}: ${seller.taxOffice}`);
  if (seller.vatNumber) doc.text(`${t('receipt.vatNumber')}: ${seller.vatNumber}`);

  doc.moveDown();
  doc.font('bold').text(t('receipt.buyer'));
  doc.font('regular').text(order.fullName || order.email);
  if (order.fullName) doc.text(order.email);
  if (tax?.business?.name) doc.text(tax.business.name);
  if (tax?.business) doc.text(`${t('receipt.vatNumber')}: ${tax.business.vatNumber}`);

  doc.moveDown();
  const listMinor = listedMinor(tax, order.amountMinor, order.discountMinor);
  const rows: [string, string][] = [[order.courseTitle, money(sign * listMinor)]];
  if (order.discountMinor > 0)
    rows.push([t('receipt.discount', { code: order.discountCode ?? '' }), money(-sign * order.discountMinor)]);
  if (tax && tax.scheme !== 'flat') rows.push(...taxRows(t, language, tax, money, sign));
  else if (seller.taxRatePercent > 0)
    rows.push([
      t('receipt.taxIncluded', { rate: seller.taxRatePercent.toLocaleString(language) }),
      money(sign * includedTax(order.amountMinor, seller.taxRatePercent)),
    ]);
  const width = doc.page.width - 112;
  for (const [label, amount] of rows) {
    const y = doc.y;
    doc.font('regular').text(label, 56, y, { width: width - 120 });
    doc.text(amount, 56 + width - 120, y, { width: 120, align: 'right' });
    doc.moveDown(0.3);
  }
  doc
    .moveTo(56, doc.y)
    .lineTo(56 + width, doc.y)
    .stroke('#999999')
    .moveDown(0.5);
  const y = doc.y;
  doc.font('bold').text(`${t('receipt.total')} (${order.currency})`, 56, y, { width: width - 120 });
  doc.text(money(sign * order.amountMinor), 56 + width - 120, y, { width: 120, align: 'right' });
  // Paid in instalments with interest: the card was charged more than the price, and says so.
  const after: [string, string][] = [];
  if (order.paidMinor !== null && order.paidMinor > order.amountMinor)
    after.push([t('receipt.paidWithInstalments'), money(sign * order.paidMinor)]);
  if (order.vatRefund && kind === 'receipt') after.push(...vatCreditRows(t, language, order.vatRefund, order, money));
  for (const [label, amount] of after) {
    doc.moveDown(0.3);
    const rowY = doc.y;
    doc.font('regular').text(label, 56, rowY, { width: width - 120 });
    doc.text(amount, 56 + width - 120, rowY, { width: 120, align: 'right' });
  }
  doc.moveDown(2);
  // The statutory mention, in the buyer's language (Article 226(11a), Council Directive 2006/112/EC).
  if (tax?.scheme === 'reverse_charge' || order.vatRefund)
    doc.font('bold').text(t('receipt.reverseCharge'), 56, doc.y, { width }).moveDown();
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#555555')
    .text(t(kind === 'receipt' ? 'receipt.footer' : 'receipt.creditNoteFooter'), 56, doc.y, { width });
  doc.end();
  return done;
}
