import { refundPurchase } from '../../../../../../functions/admin/refunds.ts';
import { resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

/** Refunds a sale: Stripe ones are requested (access ends on Stripe's confirmation), demo ones revoked at once. */
export const POST = adminEndpoint(async (context) =>
  resultResponse(await refundPurchase(context.params.id ?? ''), (refund) => refund),
);
