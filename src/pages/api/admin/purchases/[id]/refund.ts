import { z } from 'zod';
import { refundPurchase } from '../../../../../../functions/admin/refunds.ts';
import { errorResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

const NOT_REFUNDABLE = {
  free: 'admin.people.refund.free',
  not_completed: 'admin.people.refund.notCompleted',
  already_requested: 'admin.people.refund.alreadyRequested',
  no_payment_intent: 'admin.people.refund.noPaymentIntent',
  provider_unavailable: 'admin.people.refund.providerUnavailable',
} as const;

/** Refunds a sale: Stripe ones are requested (access ends on Stripe's confirmation), demo ones revoked at once. */
export const POST = adminEndpoint(async (context) => {
  const id = z.uuid().safeParse(context.params.id);
  if (!id.success) return errorResponse(404, 'not_found', 'errors.notFound');
  const outcome = await refundPurchase(id.data);
  switch (outcome.kind) {
    case 'refunded':
    case 'refund_requested':
      return Response.json({ id: id.data, status: outcome.kind }, { headers: { 'Cache-Control': 'no-store' } });
    case 'not_found':
      return errorResponse(404, 'not_found', 'errors.notFound');
    case 'not_refundable':
      return errorResponse(outcome.reason === 'free' ? 400 : 409, outcome.reason, NOT_REFUNDABLE[outcome.reason]);
    case 'provider_failed':
      return errorResponse(502, 'provider_failed', 'admin.people.refund.providerFailed');
  }
});
