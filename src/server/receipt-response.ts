import { documentFileName, renderReceiptPdf, type ReceiptOrder } from '../../functions/orders/receipts.ts';
import { errorResponse, NO_STORE } from '../lib/http.ts';

/**
 * A receipt, or with `?document=credit-note` the credit note of a refunded order, as a PDF
 * download; whoever may not see it, or an order without one, gets "not found".
 */
export async function receiptResponse(order: ReceiptOrder | undefined, url: URL): Promise<Response> {
  const kind = url.searchParams.get('document') === 'credit-note' ? 'credit_note' : 'receipt';
  if (!order || (kind === 'credit_note' && order.creditNoteNumber === null))
    return errorResponse(404, 'not_found', 'errors.notFound');
  const pdf = await renderReceiptPdf(order, kind);
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${documentFileName(order, kind)}"`,
      ...NO_STORE,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
