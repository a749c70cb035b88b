import type { TFunction } from 'i18next';
import { documentNumber, type DocumentKind, type Seller } from './numbering.ts';
import { formatDate } from '../../src/lib/dates.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * What a receipt says about tax, from the tax line the order stored at checkout (migration 0033):
 * the amount before tax, the tax at its rate (included or added), or the reverse-charge mention in
 * the buyer's language. Whether the document is an invoice: an EU seller with a VAT number issues
 * invoices; a seller in Türkiye calls this PDF an invoice ("fatura") only once the e-Arşiv invoice
 * issued on the portal or by an integrator is recorded for the order, whose number it then carries.
 */
export interface OrderTax {
  scheme: string;
  country: string;
  ratePercent: number;
  netMinor: number;
  taxMinor: number;
  /** The price included the tax (the listed price was paid); else the tax was added on top. */
  inclusive: boolean;
  /** A business buyer's name and VAT number, as given at checkout. */
  business: { name: string; vatNumber: string } | null;
}

export function orderTaxOf(row: {
  tax_scheme: string | null;
  tax_country: string | null;
  tax_rate_hundredths: number | null;
  net_minor: number | null;
  tax_minor: number | null;
  tax_evidence: unknown;
}): OrderTax | null {
  if (row.tax_scheme === null || row.net_minor === null || row.tax_minor === null) return null;
  const evidence = (row.tax_evidence ?? {}) as { vatNumber?: string; businessName?: string; inclusive?: boolean };
  return {
    scheme: row.tax_scheme,
    country: row.tax_country ?? '',
    ratePercent: (row.tax_rate_hundredths ?? 0) / 100,
    netMinor: row.net_minor,
    taxMinor: row.tax_minor,
    inclusive: evidence.inclusive ?? true,
    business: evidence.vatNumber ? { name: evidence.businessName ?? '', vatNumber: evidence.vatNumber } : null,
  };
}

export function isInvoice(seller: Seller, eArsivNumber: string | null): boolean {
  if (seller.country === 'TR') return eArsivNumber !== null;
  return Boolean(seller.vatNumber);
}

export function documentTitle(t: TFunction, seller: Seller, kind: DocumentKind, eArsivNumber: string | null): string {
  if (kind === 'credit_note') return t('receipt.creditNoteTitle');
  return t(isInvoice(seller, eArsivNumber) ? 'receipt.invoiceTitle' : 'receipt.title');
}

/**
 * The price rows after the course (and its discount): the tax, included or added, and the amount
 * before it, or the reverse-charge line. `sign` is -1 on a credit note.
 */
export function taxRows(
  t: TFunction,
  language: string,
  tax: OrderTax,
  money: (minor: number) => string,
  sign: number,
): [string, string][] {
  const label = tax.country === 'TR' ? 'KDV' : t('receipt.vat');
  if (tax.scheme === 'reverse_charge') return [[t('receipt.vatAdded', { label, rate: 0 }), money(0)]];
  if (tax.taxMinor === 0) return [];
  const rate = tax.ratePercent.toLocaleString(language);
  return [
    [t('receipt.net'), money(sign * tax.netMinor)],
    [t(tax.inclusive ? 'receipt.vatIncluded' : 'receipt.vatAdded', { label, rate }), money(sign * tax.taxMinor)],
  ];
}

/** The course's row: the listed price (before any discount), with or without the tax as it was listed. */
export function listedMinor(tax: OrderTax | null, amountMinor: number, discountMinor: number): number {
  return (tax && !tax.inclusive ? tax.netMinor : amountMinor) + discountMinor;
}

/** The VAT given back on an order found to be a reverse charge, with its own credit note number. */
export interface VatCredit {
  amountMinor: number;
  creditNoteNumber: number;
  refundedAt: Date;
}

/** The receipt's rows after its total for a VAT given back: the credit, and what the buyer paid in the end. */
export function vatCreditRows(
  t: TFunction,
  language: Language,
  credit: VatCredit,
  order: { amountMinor: number; paidMinor: number | null },
  money: (minor: number) => string,
): [string, string][] {
  const number = documentNumber('credit_note', credit.creditNoteNumber);
  return [
    [t('receipt.vatRefunded', { date: formatDate(credit.refundedAt, language), number }), money(-credit.amountMinor)],
    [t('receipt.paidAfterVatRefund'), money((order.paidMinor ?? order.amountMinor) - credit.amountMinor)],
  ];
}
