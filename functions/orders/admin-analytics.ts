import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { recentSales, SALE_STATUSES } from './admin-sales.ts';
import { NOT_SALES } from './not-sales.ts';
import { documentNumber } from './numbering.ts';
import {
  PERIOD_MONTHS,
  RECENT_TRANSACTIONS,
  TOP_COURSES_COMPUTED,
  type AnalyticsPeriod,
} from '../../src/lib/admin/analytics.schema.ts';
import { type SaleView } from '../../src/lib/admin/sales.schema.ts';
import { totalsFromJson, type CurrencyAmount } from '../../src/lib/admin/money-totals.ts';

/** A period's range: from the first day of the month `months - 1` back (UTC), the current month included. */
export interface PeriodRange {
  start: Date;
  /** Every month of the range, oldest first, as `YYYY-MM`. */
  months: string[];
}

export function periodRange(period: AnalyticsPeriod, now: Date = new Date()): PeriodRange {
  const count = PERIOD_MONTHS[period];
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  // Date.UTC carries negative months into earlier years: month -1 of 2027 is December 2026.
  const start = new Date(Date.UTC(year, month - (count - 1), 1));
  const months = Array.from({ length: count }, (_, index) => monthKey(new Date(Date.UTC(year, month - (count - 1) + index, 1))));
  return { start, months };
}

export function monthKey(date: Date): string {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

export interface MonthlySales {
  month: string;
  sales: number;
  revenue: CurrencyAmount[];
}

export interface TopCourse {
  courseId: string;
  title: string;
  sales: number;
  revenue: CurrencyAmount[];
}

export interface AnalyticsReport {
  period: AnalyticsPeriod;
  start: string;
  /** Completed purchases per currency; `paidSales` leaves out free enrolments. */
  totals: { currency: string; sales: number; paidSales: number; revenueMinor: number; discountMinor: number }[];
  sales: number;
  paidSales: number;
  freeSales: number;
  revenue: CurrencyAmount[];
  /** What discount codes took off completed orders, per currency. */
  discounts: CurrencyAmount[];
  /** Revenue / paid sales in each currency, in whole minor units (2 decimals). */
  averageOrder: CurrencyAmount[];
  buyers: number;
  monthly: MonthlySales[];
  topCourses: TopCourse[];
  recentTransactions: SaleView[];
}

/** Everything the analytics page shows for a period: five queries, none per row. */
export async function analyticsReport(period: AnalyticsPeriod, now: Date = new Date()): Promise<AnalyticsReport> {
  const { start, months } = periodRange(period, now);
  // Imported buyers paid another platform; a bundle's courses and a gift's grant were paid on their order.
  const completedSince = sql<boolean>`status = 'completed' AND completed_at >= ${start} AND provider NOT IN (${sql.join(NOT_SALES)})`;
  const [totals, buyers, monthly, topCourses, recentTransactions] = await Promise.all([
    sql<{ currency: string; sales: number; paid_sales: number; revenue_minor: number; discount_minor: number }>`
      SELECT currency, count(*)::int AS sales, count(*) FILTER (WHERE amount_minor > 0)::int AS paid_sales, coalesce(sum(amount_minor), 0)::bigint AS revenue_minor,
        coalesce(sum(discount_minor), 0)::bigint AS discount_minor
      FROM purchases WHERE ${completedSince} GROUP BY currency ORDER BY currency`.execute(db()),
    sql<{ buyers: number }>`
      SELECT count(DISTINCT coalesce(user_id::text, lower(email)))::int AS buyers FROM purchases WHERE ${completedSince}`.execute(
      db(),
    ),
    sql<{ month: string; currency: string; sales: number; revenue_minor: number }>`
      SELECT to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, currency, count(*)::int AS sales, coalesce(sum(amount_minor), 0)::bigint AS revenue_minor
      FROM purchases WHERE ${completedSince} GROUP BY 1, 2`.execute(db()),
    sql<{ course_id: string; title: string; sales: number; revenue: unknown }>`
      SELECT c.id AS course_id, c.title, sum(p.sales)::int AS sales,
        json_agg(json_build_object('currency', p.currency, 'amountMinor', p.revenue_minor) ORDER BY p.currency) AS revenue
      FROM (
        SELECT course_id, currency, count(*) AS sales, sum(amount_minor) AS revenue_minor
        FROM purchases WHERE ${completedSince} GROUP BY course_id, currency
      ) p JOIN courses c ON c.id = p.course_id
      GROUP BY c.id, c.title
      ORDER BY sum(p.sales) DESC, c.title, c.id
      LIMIT ${TOP_COURSES_COMPUTED}`.execute(db()),
    recentSales(RECENT_TRANSACTIONS, start),
  ]);

  const totalRows = totals.rows.map((row) => ({
    currency: row.currency,
    sales: row.sales,
    paidSales: row.paid_sales,
    revenueMinor: Number(row.revenue_minor),
    discountMinor: Number(row.discount_minor),
  }));
  const sales = totalRows.reduce((sum, row) => sum + row.sales, 0);
  const paidSales = totalRows.reduce((sum, row) => sum + row.paidSales, 0);
  const byMonth = new Map<string, MonthlySales>(months.map((month) => [month, { month, sales: 0, revenue: [] }]));
  for (const row of monthly.rows) {
    const entry = byMonth.get(row.month);
    if (!entry) continue; // a completion dated after now (clock skew) belongs to no month shown
    entry.sales += row.sales;
    entry.revenue.push({ currency: row.currency, amountMinor: Number(row.revenue_minor) });
  }
  return {
    period,
    start: start.toISOString(),
    totals: totalRows,
    sales,
    paidSales,
    freeSales: sales - paidSales,
    revenue: totalRows.map((row) => ({ currency: row.currency, amountMinor: row.revenueMinor })),
    discounts: totalRows
      .filter((row) => row.discountMinor > 0)
      .map((row) => ({ currency: row.currency, amountMinor: row.discountMinor })),
    averageOrder: totalRows
      .filter((row) => row.paidSales > 0)
      .map((row) => ({ currency: row.currency, amountMinor: Math.round(row.revenueMinor / row.paidSales) })),
    buyers: buyers.rows[0]?.buyers ?? 0,
    monthly: [...byMonth.values()],
    topCourses: topCourses.rows.map((row) => ({
      courseId: row.course_id,
      title: row.title,
      sales: row.sales,
      revenue: totalsFromJson(row.revenue),
    })),
    recentTransactions,
  };
}

/** One row of the CSV export. */
export interface ExportedSale {
  completedAt: Date;
  orderId: string;
  courseTitle: string;
  buyerName: string;
  buyerEmail: string;
  amountMinor: number;
  currency: string;
  status: string;
  provider: string;
  discountCode: string | null;
  discountMinor: number;
  receipt: string | null;
}

/** Every sale completed in the period (refunded and disputed ones too, with their status), oldest first. */
export async function salesForExport(period: AnalyticsPeriod, now: Date = new Date()): Promise<ExportedSale[]> {
  const { start } = periodRange(period, now);
  const rows = await db()
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'purchases.id',
      'purchases.completed_at',
      'courses.title',
      'purchases.full_name',
      'purchases.email',
      'purchases.amount_minor',
      'purchases.currency',
      'purchases.status',
      'purchases.provider',
      'purchases.refund_requested_at',
      'purchases.discount_code',
      'purchases.discount_minor',
      'purchases.receipt_number',
    ])
    .where('purchases.status', 'in', SALE_STATUSES)
    .where('purchases.provider', 'not in', NOT_SALES)
    .where('purchases.completed_at', '>=', start)
    .orderBy('purchases.completed_at')
    .orderBy('purchases.id')
    .execute();
  return rows.map((row) => ({
    completedAt: row.completed_at!,
    orderId: row.id,
    courseTitle: row.title,
    buyerName: row.full_name,
    buyerEmail: row.email,
    amountMinor: row.amount_minor,
    currency: row.currency,
    status: row.status === 'completed' && row.refund_requested_at ? 'refund_requested' : row.status,
    provider: row.provider,
    discountCode: row.discount_code,
    discountMinor: row.discount_minor,
    receipt: row.receipt_number === null ? null : documentNumber('receipt', row.receipt_number),
  }));
}
