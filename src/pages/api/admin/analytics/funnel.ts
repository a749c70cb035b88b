import { funnelRows } from '../../../../../functions/funnel/report.ts';
import { PeriodSchema } from '../../../../lib/admin/analytics.schema.ts';
import { rate } from '../../../../lib/admin/funnel.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { csvDownload } from '../../../../server/csv-download.ts';

export const prerender = false;

const HEADER = [
  'week',
  'course_id',
  'course',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'referrer_host',
  'views',
  'checkouts_started',
  'paid',
  'view_to_checkout_percent',
  'checkout_to_paid_percent',
];

/** The period's funnel per course, week and source as a CSV download (cells neutralised, csv.ts). */
export const GET = adminEndpoint(async (context) => {
  const period = PeriodSchema.parse(context.url.searchParams.get('period') ?? undefined);
  const rows = (await funnelRows(period)).map((row) => [
    row.week,
    row.courseId,
    row.title,
    row.utmSource,
    row.utmMedium,
    row.utmCampaign,
    row.referrerHost,
    row.views,
    row.checkouts,
    row.paid,
    rate(row.checkouts, row.views) ?? '',
    rate(row.paid, row.checkouts) ?? '',
  ]);
  return csvDownload(`funnel-${period}-${new Date().toISOString().slice(0, 10)}.csv`, [HEADER, ...rows]);
});
