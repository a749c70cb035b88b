import { db } from '../db/database.ts';
import type { SaleStatus, SaleView } from '../../src/lib/admin/sales.schema.ts';
import { documentNumber } from './numbering.ts';
import { PAYMENT_PROVIDERS } from '../payments/registry.ts';
import { NOT_SALES } from './not-sales.ts';

/**
 * Sales as the admin sees them. A sale is a purchase that completed at some point: still
 * `completed`, or since `refunded`/`disputed`. Revenue and sale counts take only `completed` ones.
 * Imported purchases, a bundle's courses and a gift's grant are no sale of this shop (not-sales.ts).
 */
export const SALE_STATUSES = ['completed', 'refunded', 'disputed'] as const;

interface SaleRow {
  id: string;
  course_title: string;
  email: string;
  amount_minor: number;
  currency: string;
  completed_at: Date;
  status: string;
  provider: string;
  refund_requested_at: Date | null;
  receipt_number: number | null;
  credit_note_number: number | null;
  discount_code: string | null;
  discount_minor: number;
}

/** The newest sales, optionally since a date. One query. */
export async function recentSales(limit: number, since?: Date): Promise<SaleView[]> {
  let query = db()
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'purchases.id',
      'courses.title as course_title',
      'purchases.email',
      'purchases.amount_minor',
      'purchases.currency',
      'purchases.completed_at',
      'purchases.status',
      'purchases.provider',
      'purchases.refund_requested_at',
      'purchases.receipt_number',
      'purchases.credit_note_number',
      'purchases.discount_code',
      'purchases.discount_minor',
    ])
    .where('purchases.status', 'in', SALE_STATUSES)
    .where('purchases.provider', 'not in', NOT_SALES)
    .where('purchases.completed_at', 'is not', null)
    .orderBy('purchases.completed_at', 'desc')
    .orderBy('purchases.id')
    .limit(limit);
  if (since) query = query.where('purchases.completed_at', '>=', since);
  const rows = await query.execute();
  return rows.map((row) => toSaleView(row as SaleRow));
}

export function toSaleView(row: SaleRow): SaleView {
  return {
    id: row.id,
    courseTitle: row.course_title,
    email: row.email,
    amountMinor: row.amount_minor,
    currency: row.currency,
    date: row.completed_at.toISOString(),
    status: saleStatus(row.status, row.refund_requested_at),
    ...providerOf(row.provider),
    receiptNumber: row.receipt_number === null ? null : documentNumber('receipt', row.receipt_number),
    creditNoteNumber: row.credit_note_number === null ? null : documentNumber('credit_note', row.credit_note_number),
    discountCode: row.discount_code,
    discountMinor: row.discount_minor,
  };
}

/** What the admin lists say about the provider a sale was made with, from its file (payments/registry.ts). */
function providerOf(name: string): Pick<SaleView, 'provider' | 'providerLabel' | 'refundEndsAccess' | 'demo'> {
  const provider = PAYMENT_PROVIDERS.find((candidate) => candidate.name === name);
  return {
    provider: name,
    providerLabel: provider?.label ?? name,
    refundEndsAccess: provider?.refundEndsAccess ?? 'on_confirmation',
    demo: provider?.developerTool ?? false,
  };
}

export function saleStatus(status: string, refundRequestedAt: Date | null): SaleStatus {
  if (status === 'refunded' || status === 'disputed') return status;
  return refundRequestedAt ? 'refund_requested' : 'completed';
}
