import { salesForExport } from '../../../../../functions/admin/analytics.ts';
import { csvResponse } from '../../../../../functions/admin/csv.ts';
import { PeriodSchema } from '../../../../lib/admin/analytics.schema.ts';
import { toMajorUnits } from '../../../../lib/money.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';

export const prerender = false;

const HEADER = [
  'completed_at',
  'order_id',
  'receipt',
  'course',
  'buyer_name',
  'buyer_email',
  'amount',
  'discount',
  'discount_code',
  'currency',
  'status',
  'provider',
];

/** The period's sales as a CSV download, every cell escaped and neutralised against formula injection. */
export const GET = adminEndpoint(async (context) => {
  const period = PeriodSchema.parse(context.url.searchParams.get('period') ?? undefined);
  const sales = await salesForExport(period);
  const rows = sales.map((sale) => [
    sale.completedAt.toISOString(),
    sale.orderId,
    sale.receipt ?? '',
    sale.courseTitle,
    sale.buyerName,
    sale.buyerEmail,
    toMajorUnits(sale.amountMinor).toFixed(2),
    toMajorUnits(sale.discountMinor).toFixed(2),
    sale.discountCode ?? '',
    sale.currency,
    sale.status,
    sale.provider,
  ]);
  const filename = `sales-${period}-${new Date().toISOString().slice(0, 10)}.csv`;
  return csvResponse(filename, [HEADER, ...rows]);
});
