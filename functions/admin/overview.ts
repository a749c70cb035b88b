import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { NOT_SALES } from '../orders/not-sales.ts';
import type { CurrencyAmount } from '../../src/lib/admin/money-totals.ts';

export interface OverviewStats {
  courses: number;
  users: number;
  /** Completed purchases' amounts, per currency. */
  revenue: CurrencyAmount[];
  /** Completed purchases, paid and free (imported ones were sold elsewhere: not counted). */
  sales: number;
  paidSales: number;
  freeSales: number;
}

/** The four cards of the admin overview, across the whole shop (every course language). Two queries. */
export async function overviewStats(): Promise<OverviewStats> {
  const [counts, totals] = await Promise.all([
    sql<{
      courses: number;
      users: number;
    }>`SELECT (SELECT count(*) FROM courses)::int AS courses, (SELECT count(*) FROM users)::int AS users`.execute(db()),
    sql<{ currency: string; sales: number; paid_sales: number; revenue_minor: number }>`
      SELECT currency, count(*)::int AS sales, count(*) FILTER (WHERE amount_minor > 0)::int AS paid_sales, coalesce(sum(amount_minor), 0)::bigint AS revenue_minor
      FROM purchases WHERE status = 'completed' AND provider NOT IN (${sql.join(NOT_SALES)}) GROUP BY currency ORDER BY currency`.execute(
      db(),
    ),
  ]);
  const sales = totals.rows.reduce((sum, row) => sum + row.sales, 0);
  const paidSales = totals.rows.reduce((sum, row) => sum + row.paid_sales, 0);
  return {
    courses: counts.rows[0]?.courses ?? 0,
    users: counts.rows[0]?.users ?? 0,
    revenue: totals.rows.map((row) => ({ currency: row.currency, amountMinor: Number(row.revenue_minor) })),
    sales,
    paidSales,
    freeSales: sales - paidSales,
  };
}
