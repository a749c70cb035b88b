import type { APIRoute } from 'astro';
import { fulfilPayment } from '../../../../../functions/orders/fulfilment.ts';
import { demoPaymentsEnabled } from '../../../../../functions/payments/registry.ts';
import { errorResponse, noStoreJson } from '../../../../lib/http.ts';
import { UUID_PATTERN } from '../../../../lib/uuid.ts';

export const prerender = false;

/** The demo provider's "Pay": completes the order through the same fulfilment code as Stripe's webhook. */
export const POST: APIRoute = async ({ params }) => {
  const paymentId = params.paymentId ?? '';
  if (!demoPaymentsEnabled() || !isDemoReference(paymentId)) return errorResponse(404, 'not_found', 'errors.notFound');
  const outcome = await fulfilPayment({ eventId: `demo-pay:${paymentId}`, eventType: 'demo.payment.succeeded', paymentId });
  if (outcome === 'unknown_order') return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ outcome });
};

/** The demo provider's references: `demo_` and a UUID. */
function isDemoReference(reference: string): boolean {
  return reference.startsWith('demo_') && UUID_PATTERN.test(reference.slice('demo_'.length));
}
