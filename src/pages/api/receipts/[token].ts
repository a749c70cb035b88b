import type { APIRoute } from 'astro';
import { receiptByToken } from '../../../../functions/orders/receipts.ts';
import { receiptResponse } from '../../../server/receipt-response.ts';

export const prerender = false;

/** The confirmation e-mail's receipt link: the same unguessable token as its download link. */
export const GET: APIRoute = async ({ params, url }) => receiptResponse(await receiptByToken(params.token ?? ''), url);
