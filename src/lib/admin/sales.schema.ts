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
  /** `free`, or the payment provider's name, and how the refund dialog names it. */
  provider: string;
  providerLabel: string;
  /** `now`: a refund ends access at once; `on_confirmation`: when the provider confirms it. */
  refundEndsAccess: 'now' | 'on_confirmation';
  /** A sale a developer tool (the demo provider) made: no money moved. */
  demo: boolean;
  /** "R-000042" for a paid sale; "CN-000007" once refunded. */
  receiptNumber: string | null;
  creditNoteNumber: string | null;
  discountCode: string | null;
  discountMinor: number;
}

export function isRefundable(sale: Pick<SaleView, 'status' | 'provider' | 'amountMinor'>): boolean {
  return sale.status === 'completed' && sale.provider !== 'free' && sale.amountMinor > 0;
}
