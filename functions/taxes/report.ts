import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { quarterBounds, type Quarter } from '../../src/lib/admin/tax-report.schema.ts';
import { invalid, notFound, ok, type Result } from '../../src/lib/result.ts';

/**
 * Admin → Taxes: what the seller files. Per quarter, the tax lines of paid orders by scheme, country,
 * rate and currency (the OSS return's lines), with refunds netted in the quarter of their credit note;
 * per month of that quarter, the domestic VAT/KDV. Only orders with a tax line (from checkout with tax
 * settings on) count; "none" rows show where the shop sells without charging tax.
 */
export interface TaxReportLine {
  scheme: string;
  country: string;
  ratePercent: number;
  currency: string;
  orders: number;
  netMinor: number;
  taxMinor: number;
}

export interface DomesticMonth {
  month: string;
  currency: string;
  orders: number;
  netMinor: number;
  taxMinor: number;
}

/**
 * Sales (+1) in the period by their payment, refunds (−1) by their credit note. A VAT refund (a sale
 * found to be a reverse charge, orders/vat-refund.ts) moves the sale, when it was made, from its
 * consumer line (−1) to the reverse charge's of the VAT number's country (+1); a full refund after it
 * takes the sale off that reverse-charge line.
 */
export function movements(from: Date, to: Date) {
  return sql`
    SELECT tax_scheme, tax_country, tax_rate_hundredths, currency, net_minor, tax_minor, completed_at AS at, 1 AS sign
      FROM purchases
     WHERE receipt_number IS NOT NULL AND tax_scheme IS NOT NULL AND completed_at >= ${from} AND completed_at < ${to}
    UNION ALL
    SELECT CASE WHEN v.purchase_id IS NULL THEN p.tax_scheme ELSE 'reverse_charge' END,
           coalesce(v.country, p.tax_country),
           CASE WHEN v.purchase_id IS NULL THEN p.tax_rate_hundredths ELSE 0 END,
           p.currency, p.net_minor, CASE WHEN v.purchase_id IS NULL THEN p.tax_minor ELSE 0 END, p.refunded_at, -1
      FROM purchases p LEFT JOIN vat_refunds v ON v.purchase_id = p.id
     WHERE p.credit_note_number IS NOT NULL AND p.tax_scheme IS NOT NULL AND p.refunded_at >= ${from} AND p.refunded_at < ${to}
    UNION ALL
    SELECT p.tax_scheme, p.tax_country, p.tax_rate_hundredths, p.currency, p.net_minor, p.tax_minor, v.refunded_at, -1
      FROM purchases p JOIN vat_refunds v ON v.purchase_id = p.id
     WHERE v.refunded_at >= ${from} AND v.refunded_at < ${to}
    UNION ALL
    SELECT 'reverse_charge', v.country, 0, p.currency, p.net_minor, 0, v.refunded_at, 1
      FROM purchases p JOIN vat_refunds v ON v.purchase_id = p.id
     WHERE v.refunded_at >= ${from} AND v.refunded_at < ${to}`;
}

export async function quarterTaxLines(period: Quarter): Promise<TaxReportLine[]> {
  const { from, to } = quarterBounds(period);
  const { rows } = await sql<{
    scheme: string;
    country: string;
    rate: number;
    currency: string;
    orders: string;
    net: string;
    tax: string;
  }>`
    SELECT tax_scheme AS scheme, tax_country AS country, tax_rate_hundredths AS rate, currency,
           sum(sign) AS orders, sum(sign * net_minor) AS net, sum(sign * tax_minor) AS tax
      FROM (${movements(from, to)}) m
     GROUP BY 1, 2, 3, 4
     ORDER BY 1, 2, 3 DESC, 4`.execute(db());
  return rows.map((row) => ({
    scheme: row.scheme,
    country: row.country,
    ratePercent: row.rate / 100,
    currency: row.currency,
    orders: Number(row.orders),
    netMinor: Number(row.net),
    taxMinor: Number(row.tax),
  }));
}

export async function domesticTaxByMonth(period: Quarter): Promise<DomesticMonth[]> {
  const { from, to } = quarterBounds(period);
  const { rows } = await sql<{ month: string; currency: string; orders: string; net: string; tax: string }>`
    SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, currency,
           sum(sign) AS orders, sum(sign * net_minor) AS net, sum(sign * tax_minor) AS tax
      FROM (${movements(from, to)}) m
     WHERE tax_scheme = 'domestic'
     GROUP BY 1, 2
     ORDER BY 1, 2`.execute(db());
  return rows.map((row) => ({
    month: row.month,
    currency: row.currency,
    orders: Number(row.orders),
    netMinor: Number(row.net),
    taxMinor: Number(row.tax),
  }));
}

/** A paid order still waiting for its e-Arşiv invoice (a seller in Türkiye invoices every sale). */
export interface EArsivPending {
  orderId: string;
  receiptNumber: number;
  completedAt: Date;
  buyerName: string;
  email: string;
  /** From the billing details iyzico asked for, when there are some. */
  identityNumber: string;
  address: string;
  currency: string;
  amountMinor: number;
  taxMinor: number;
}

export async function eArsivPending(limit = 200): Promise<EArsivPending[]> {
  const rows = await db()
    .selectFrom('purchases')
    .select(['id', 'receipt_number', 'completed_at', 'full_name', 'email', 'billing', 'currency', 'amount_minor', 'tax_minor'])
    .where('status', '=', 'completed')
    .where('receipt_number', 'is not', null)
    .where('e_arsiv_number', 'is', null)
    .orderBy('receipt_number')
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const billing = (row.billing ?? {}) as Partial<Record<'address' | 'city' | 'country' | 'identityNumber', string>>;
    return {
      orderId: row.id,
      receiptNumber: row.receipt_number!,
      completedAt: row.completed_at!,
      buyerName: row.full_name,
      email: row.email,
      identityNumber: billing.identityNumber ?? '',
      address: [billing.address, billing.city, billing.country].filter(Boolean).join(', '),
      currency: row.currency,
      amountMinor: row.amount_minor,
      taxMinor: row.tax_minor ?? 0,
    };
  });
}

/** Records the e-Arşiv invoice number of a paid order, once; a number already used elsewhere is refused. */
export async function recordEArsivNumber(orderId: string, number: string): Promise<Result<{ orderId: string }>> {
  const updated = await db()
    .updateTable('purchases')
    .set({ e_arsiv_number: number, updated_at: new Date() })
    .where('id', '=', orderId)
    .where('receipt_number', 'is not', null)
    .where('e_arsiv_number', 'is', null)
    .returning('id')
    .executeTakeFirst()
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') return 'taken' as const;
      throw error;
    });
  if (updated === 'taken')
    return invalid('e_arsiv_taken', 'admin.taxReport.eArsivTaken', { number: 'admin.taxReport.eArsivTaken' });
  return updated ? ok({ orderId }) : notFound;
}
