import type { APIRoute } from 'astro';
import { configuredProvider } from '../../../../../functions/payments/registry.ts';
import { InvalidNotification } from '../../../../../functions/payments/provider.ts';
import { applyPaymentNotice } from '../../../../../functions/orders/payment-notices.ts';
import { log, requestId } from '../../../../../functions/log.ts';
import { errorResponse, readText } from '../../../../lib/http.ts';

export const prerender = false;

const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * A payment provider's signed notification (iyzico's, at /api/payments/iyzico/webhook). Unsigned,
 * forged or malformed ones get 400 and change nothing; a notice for an order not written yet gets
 * 409 so the provider delivers again; a database failure 500, for the same reason.
 */
export const POST: APIRoute = async ({ params, request }) => {
  const provider = configuredProvider(params.provider);
  if (!provider?.confirmWebhook) return errorResponse(404, 'not_found', 'errors.notFound');
  const read = await readText(request, MAX_WEBHOOK_BYTES);
  if ('response' in read) return read.response;
  try {
    const outcome = await applyPaymentNotice(await provider.confirmWebhook(read.text, request.headers));
    if (outcome === 'retry') return errorResponse(409, 'order_not_known_yet', 'errors.badRequest');
    return Response.json({ received: true, outcome });
  } catch (error) {
    if (error instanceof InvalidNotification) return errorResponse(400, 'invalid_signature', 'errors.badRequest');
    log.error({ reqId: requestId(request), provider: provider.name, err: error }, 'payment notification failed');
    return errorResponse(500, 'temporary_failure', 'errors.server');
  }
};
