import type { APIRoute } from 'astro';
import { receiptOfBuyer } from '../../../../../../functions/orders/receipts.ts';
import { errorResponse } from '../../../../../lib/http.ts';
import { currentUser } from '../../../../../server/guards.ts';
import { receiptResponse } from '../../../../../server/receipt-response.ts';

export const prerender = false;

/** Order history's receipt and credit-note links: the signed-in buyer's own orders only. */
export const GET: APIRoute = async (context) => {
  const user = await currentUser(context);
  if (!user) return errorResponse(401, 'unauthorized', 'errors.unauthorized');
  return receiptResponse(await receiptOfBuyer(context.params.id ?? '', user.id), context.url);
};
