import { quarterTaxLines } from '../../../../../functions/taxes/report.ts';
import { QuarterSchema, quarterName } from '../../../../lib/admin/tax-report.schema.ts';
import { toMajorUnits } from '../../../../lib/money.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { csvDownload } from '../../../../server/csv-download.ts';

export const prerender = false;

const HEADER = ['quarter', 'scheme', 'country', 'rate_percent', 'currency', 'orders', 'net', 'tax', 'gross'];

/** The quarter's tax lines (refunds netted) as a CSV download: one row per scheme, country, rate and currency. */
export const GET = adminEndpoint(async (context) => {
  const period = QuarterSchema.parse(context.url.searchParams.get('quarter') ?? undefined);
  const lines = await quarterTaxLines(period);
  // Numbers, not text: a refund-netted total may be negative, and text starting with '-' is neutralised as a formula.
  const money = (minor: number) => Number(toMajorUnits(minor).toFixed(2));
  const rows = lines.map((line) => [
    quarterName(period),
    line.scheme,
    line.country,
    line.ratePercent,
    line.currency,
    line.orders,
    money(line.netMinor),
    money(line.taxMinor),
    money(line.netMinor + line.taxMinor),
  ]);
  return csvDownload(`taxes-${quarterName(period)}.csv`, [HEADER, ...rows]);
});
