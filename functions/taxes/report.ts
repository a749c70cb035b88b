import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { quarterBounds, type Quarter } from '../../src/lib/admin/tax-report.schema.ts';

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

/** Sales (+1) in the period by their payment, refunds (−1) by their credit note. */
function movements(from: Date, to: Date) {
  return sql`
    SELECT tax_scheme, tax_country, tax_rate_hundredths, currency, net_minor, tax_minor, completed_at AS at, 1 AS sign
      FROM purchases
     WHERE receipt_number IS NOT NULL AND tax_scheme IS NOT NULL AND completed_at >= ${from} AND completed_at < ${to}
    UNION ALL
    SELECT tax_scheme, tax_country, tax_rate_hundredths, currency, net_minor, tax_minor, refunded_at AS at, -1 AS sign
      FROM purchases
     WHERE credit_note_number IS NOT NULL AND tax_scheme IS NOT NULL AND refunded_at >= ${from} AND refunded_at < ${to}`;
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
