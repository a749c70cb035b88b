import { analyticsReport } from '../../../../../functions/orders/admin-analytics.ts';
import { PeriodSchema } from '../../../../lib/admin/analytics.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { noStoreJson } from '../../../../lib/http.ts';

export const prerender = false;

/** The analytics page's numbers as JSON: `?period=1month|3months|6months|1year` (default 3months). */
export const GET = adminEndpoint(async (context) => {
  const period = PeriodSchema.parse(context.url.searchParams.get('period') ?? undefined);
  return noStoreJson(await analyticsReport(period));
});
