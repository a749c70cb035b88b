import type { APIRoute } from 'astro';
import { fulfilPayment } from '../../../../../functions/orders/fulfilment.ts';
import { demoPaymentsEnabled } from '../../../../../functions/payments/registry.ts';
import { errorResponse } from '../../../../lib/http.ts';

export const prerender = false;

/** The demo provider's "Pay": completes the order through the same fulfilment code as Stripe's webhook. */
export const POST: APIRoute = async ({ params }) => {
  const paymentId = params.paymentId ?? '';
  if (!demoPaymentsEnabled() || !/^demo_[0-9a-f-]{36}$/.test(paymentId))
    return errorResponse(404, 'not_found', 'errors.notFound');
  const outcome = await fulfilPayment({ eventId: `demo-pay:${paymentId}`, eventType: 'demo.payment.succeeded', paymentId });
  if (outcome === 'unknown_order') return errorResponse(404, 'not_found', 'errors.notFound');
  return Response.json({ outcome }, { headers: { 'Cache-Control': 'no-store' } });
};
