import { refundPurchase } from '../../../../../../functions/orders/refunds.ts';
import { resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

/** Refunds a sale through its provider: requested when the provider confirms later, revoked at once otherwise. */
export const POST = adminEndpoint(async (context) =>
  resultResponse(await refundPurchase(context.params.id ?? ''), (refund) => refund),
);
