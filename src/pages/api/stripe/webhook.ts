import type { APIRoute } from 'astro';
import { stripeNotice, verifyWebhook } from '../../../../functions/payments/stripe.ts';
import { applyPaymentNotice } from '../../../../functions/orders/payment-notices.ts';
import { log, requestId } from '../../../../functions/log.ts';
import { readText } from '../../../lib/http.ts';

export const prerender = false;

const MAX_WEBHOOK_BYTES = 1024 * 1024;

/**
 * Stripe's webhook. The body is read once as raw text and verified before anything is parsed:
 * forged, altered or stale events get 400 and change nothing. Handled and ignored events get 200;
 * a database failure gets 500, so Stripe delivers again.
 */
export const POST: APIRoute = async ({ request }) => {
  const raw = await readText(request, MAX_WEBHOOK_BYTES);
  if ('response' in raw) return raw.response;
  let event;
  try {
    event = verifyWebhook(raw.text, request.headers.get('stripe-signature'));
  } catch {
    return new Response('Invalid signature', { status: 400 });
  }
  try {
    const outcome = await applyPaymentNotice(await stripeNotice(event));
    if (outcome === 'retry') return new Response('Order not known yet', { status: 409 });
    return Response.json({ received: true, outcome });
  } catch (error) {
    log.error({ reqId: requestId(request), event: event.id, type: event.type, err: error }, 'webhook event failed');
    return new Response('Temporary failure', { status: 500 });
  }
};
