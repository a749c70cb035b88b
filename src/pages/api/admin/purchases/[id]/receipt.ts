import { receiptForAdmin } from '../../../../../../functions/orders/receipts.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { receiptResponse } from '../../../../../server/receipt-response.ts';

export const prerender = false;

/** Any sale's receipt or credit note, from Admin → Sales. */
export const GET = adminEndpoint(async ({ params, url }) => receiptResponse(await receiptForAdmin(params.id ?? ''), url));
