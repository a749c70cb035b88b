import type { APIRoute } from 'astro';
import { courseForSale } from '../../../../functions/catalogue/course-for-sale.ts';
import { priceWithCode } from '../../../../functions/discounts/discounts.ts';
import { withNamedPrice } from '../../../../functions/orders/named-price.ts';
import { priceForBuyer } from '../../../../functions/orders/bundles.ts';
import { consumeAll, LIMITS } from '../../../../functions/limits/limits.ts';
import { QuoteRequestSchema } from '../../../lib/checkout.schema.ts';
import { errorResponse, readJson, resultResponse, tooManyRequests } from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';
import { currentUser } from '../../../server/guards.ts';

export const prerender = false;

/** "Have a code?": the price a code gives for a course, or why it does not apply. Changes nothing. */
export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, QuoteRequestSchema);
  if ('response' in body) return body.response;
  const verdict = await consumeAll([[LIMITS.codeChecksPerClient, clientIp(context.request, context.clientAddress)]]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  const course = await courseForSale(body.data.courseId, body.data.language, body.data.currency);
  if (!course) return errorResponse(404, 'course_not_found', 'checkout.courseNotFound');
  const user = await currentUser(context);
  // A bundle's code applies to the price this buyer pays (lowered by the courses they own).
  const priced = withNamedPrice((await priceForBuyer(course, user?.id)).course, body.data.price);
  const quote = priced.ok ? await priceWithCode(priced.value, body.data.discountCode, user?.email) : priced;
  return resultResponse(quote, ({ listMinor, discountMinor, totalMinor, currency, code }) => ({
    listMinor,
    discountMinor,
    totalMinor,
    currency,
    code: code ?? null,
  }));
};
