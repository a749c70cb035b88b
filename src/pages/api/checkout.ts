import type { APIRoute } from 'astro';
import { startCheckout } from '../../../functions/checkout/checkout.ts';
import { CheckoutRequestSchema } from '../../lib/checkout.schema.ts';
import { errorResponse, readJson, resultResponse, tooManyRequests } from '../../lib/http.ts';
import { clientIp } from '../../server/client-ip.ts';
import { consumeAll, LIMITS, targetKey } from '../../../functions/limits/limits.ts';
import { courseUrl } from '../../lib/course-links.ts';
import { currentUser } from '../../server/guards.ts';
import { log, requestId } from '../../../functions/log.ts';
import {
  CHECKOUT_ACCESS_COOKIE,
  CHECKOUT_ACCESS_TTL_S,
  grantCheckoutAccess,
} from '../../../functions/checkout/checkout-access.ts';
import { env } from '../../../functions/env.ts';
import { localizedPath } from '../../i18n/languages.ts';

export const prerender = false;

/** Starts a checkout: free enrolment completes at once; a paid course answers with the payment page. */
export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, CheckoutRequestSchema);
  if ('response' in body) return body.response;
  // Every checkout may mail the address (the course, or "you already own it") and makes rows.
  const client = clientIp(context.request, context.clientAddress);
  const verdict = await consumeAll([
    [LIMITS.checkoutPerClient, client],
    [LIMITS.checkoutPerAddress, targetKey(body.data.email)],
  ]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  try {
    const result = await startCheckout(body.data, await currentUser(context), { clientIp: client });
    if (result.kind === 'refused') return resultResponse(result.failure, () => ({}));
    if (result.kind === 'course_not_found') return errorResponse(404, 'course_not_found', 'checkout.courseNotFound');
    if (result.kind === 'not_for_sale') return errorResponse(503, 'payments_unavailable', 'course.notForSaleNow');
    if (result.kind === 'already_owned') {
      return Response.json(
        { alreadyOwned: true, courseUrl: courseUrl(body.data.language, result.courseId) },
        { status: 409, headers: { 'Cache-Control': 'no-store' } },
      );
    }
    if (result.kind === 'sent_to_owner') {
      return Response.json(
        { redirectUrl: localizedPath(body.data.language, '/checkout/sent') },
        { headers: { 'Cache-Control': 'no-store' } },
      );
    }
    // This browser, and only it, may download the course from the success page (checkout-access.ts).
    context.cookies.set(
      CHECKOUT_ACCESS_COOKIE,
      grantCheckoutAccess(context.cookies.get(CHECKOUT_ACCESS_COOKIE)?.value, result.paymentId),
      {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: env().NODE_ENV === 'production',
        maxAge: CHECKOUT_ACCESS_TTL_S,
      },
    );
    return Response.json({ redirectUrl: result.url }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    log.error({ reqId: requestId(context.request), err: error }, 'checkout failed');
    return errorResponse(502, 'checkout_failed', 'checkout.failed');
  }
};
