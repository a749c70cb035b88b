/** A sale as the admin lists show it (overview, analytics). */
export type SaleStatus = 'completed' | 'refund_requested' | 'refunded' | 'disputed';
export interface SaleView {
  id: string;
  courseTitle: string;
  email: string;
  amountMinor: number;
  currency: string;
  /** ISO date of completion. */
  date: string;
  status: SaleStatus;
  provider: 'free' | 'stripe' | 'demo';
  /** "R-000042" for a paid sale; "CN-000007" once refunded. */
  receiptNumber: string | null;
  creditNoteNumber: string | null;
  discountCode: string | null;
  discountMinor: number;
}

export function isRefundable(sale: Pick<SaleView, 'status' | 'provider' | 'amountMinor'>): boolean {
  return sale.status === 'completed' && sale.provider !== 'free' && sale.amountMinor > 0;
}
