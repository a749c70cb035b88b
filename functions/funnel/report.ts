import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { periodRange } from '../orders/admin-analytics.ts';
import { NOT_SALES } from '../orders/not-sales.ts';
import type { AnalyticsPeriod } from '../../src/lib/admin/analytics.schema.ts';
import type { FunnelRow, FunnelWeek } from '../../src/lib/admin/funnel.schema.ts';

/**
 * The funnel per course, week and source for a period (Admin → Analytics): course page views (the
 * counters of view-counter.ts), checkouts started (purchases created, whatever became of them) and paid
 * (those completed), both in the week the checkout started and under the source it came with
 * (checkout-sources.ts; none: direct). Decision 45. A bundle's courses, a gift's grant and imported
 * buyers were no checkout (not-sales.ts).
 */
export async function funnelRows(period: AnalyticsPeriod, limit = 50_000): Promise<FunnelRow[]> {
  const start = periodRange(period).start;
  const { rows } = await sql<{
    course_id: string;
    title: string;
    week: string;
    utm_source: string;
    utm_medium: string;
    utm_campaign: string;
    referrer_host: string;
    views: string;
    checkouts: string;
    paid: string;
  }>`
    WITH viewed AS (
      SELECT course_id, week, utm_source, utm_medium, utm_campaign, referrer_host, sum(views) AS views
      FROM funnel_views WHERE week >= date_trunc('week', ${start}::timestamptz AT TIME ZONE 'UTC')::date
      GROUP BY 1, 2, 3, 4, 5, 6
    ), started AS (
      SELECT purchases.course_id, date_trunc('week', purchases.created_at AT TIME ZONE 'UTC')::date AS week,
        coalesce(sources.utm_source, '') AS utm_source, coalesce(sources.utm_medium, '') AS utm_medium,
        coalesce(sources.utm_campaign, '') AS utm_campaign, coalesce(sources.referrer_host, '') AS referrer_host,
        count(*) AS checkouts, count(*) FILTER (WHERE purchases.completed_at IS NOT NULL) AS paid
      FROM purchases LEFT JOIN funnel_checkout_sources AS sources ON sources.payment_id = purchases.payment_id
      WHERE purchases.created_at >= date_trunc('week', ${start}::timestamptz AT TIME ZONE 'UTC')
        AND purchases.provider NOT IN (${sql.join(NOT_SALES)})
      GROUP BY 1, 2, 3, 4, 5, 6
    )
    SELECT course_id, courses.title, to_char(week, 'YYYY-MM-DD') AS week, utm_source, utm_medium, utm_campaign,
      referrer_host, coalesce(viewed.views, 0) AS views, coalesce(started.checkouts, 0) AS checkouts,
      coalesce(started.paid, 0) AS paid
    FROM viewed FULL JOIN started USING (course_id, week, utm_source, utm_medium, utm_campaign, referrer_host)
    JOIN courses ON courses.id = course_id
    ORDER BY week DESC, views DESC, checkouts DESC, courses.title, utm_source, utm_medium, utm_campaign, referrer_host
    LIMIT ${limit}`.execute(db());
  return rows.map((row) => ({
    courseId: row.course_id,
    title: row.title,
    week: row.week,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    referrerHost: row.referrer_host,
    views: Number(row.views),
    checkouts: Number(row.checkouts),
    paid: Number(row.paid),
  }));
}

/** The period's weeks, oldest first, each summed over courses and sources (the chart). */
export function funnelWeeks(rows: FunnelRow[]): FunnelWeek[] {
  const weeks = new Map<string, FunnelWeek>();
  for (const row of rows) {
    const week = weeks.get(row.week) ?? { week: row.week, views: 0, checkouts: 0, paid: 0 };
    week.views += row.views;
    week.checkouts += row.checkouts;
    week.paid += row.paid;
    weeks.set(row.week, week);
  }
  return [...weeks.values()].sort((a, b) => a.week.localeCompare(b.week));
}
