import type { APIRoute } from 'astro';
import { configuredProvider } from '../../../../../functions/payments/registry.ts';
import { failedPaymentUrl, InvalidNotification, successUrl } from '../../../../../functions/payments/provider.ts';
import { applyPaymentNotice } from '../../../../../functions/orders/payment-notices.ts';
import { getOrderByPaymentId } from '../../../../../functions/orders/orders.ts';
import { log, requestId } from '../../../../../functions/log.ts';
import { asLanguage, LANGUAGE_COOKIE, negotiateLanguage } from '../../../../i18n/languages.ts';
import { siteUrl } from '../../../../../functions/env.ts';
import { NO_STORE, readText } from '../../../../lib/http.ts';

export const prerender = false;

const MAX_CALLBACK_BYTES = 4 * 1024;

/**
 * The buyer's browser coming back from a provider's hosted page (iyzico posts a token here from its
 * own site, without our cookies). The token is looked up with the provider on the server and the
 * order found by it, never by a session; the answer is a 303 to the order's page in its language:
 * the success page (which says "confirming" while the order waits), or the course with a message
 * when the payment failed. A token nobody issued lands on the success page's translated "not found".
 */
export const POST: APIRoute = async ({ params, request, cookies }) => {
  const provider = configuredProvider(params.provider);
  const visitorLanguage = negotiateLanguage(cookies.get(LANGUAGE_COOKIE)?.value, request.headers.get('accept-language'));
  const unknown = () => seeOther(`${siteUrl()}/${visitorLanguage}/checkout/success?session_id=unknown`);
  if (!provider?.confirmCallback) return unknown();
  const read = await readText(request, MAX_CALLBACK_BYTES);
  if ('response' in read) return read.response;
  try {
    const { checkoutReference, notice } = await provider.confirmCallback(new URLSearchParams(read.text));
    const order = await getOrderByPaymentId(checkoutReference);
    if (!order || order.provider !== provider.name) return unknown();
    await applyPaymentNotice(notice);
    const settled = await getOrderByPaymentId(checkoutReference);
    const language = asLanguage(order.language);
    if (settled?.status === 'failed' || settled?.status === 'expired')
      return seeOther(failedPaymentUrl(language, order.courseId));
    return seeOther(successUrl(language, order.courseId, checkoutReference));
  } catch (error) {
    if (error instanceof InvalidNotification) return unknown();
    log.error({ reqId: requestId(request), provider: provider.name, err: error }, 'payment callback failed');
    throw error;
  }
};

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, ...NO_STORE } });
