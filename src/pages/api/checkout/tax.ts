import type { APIRoute } from 'astro';
import { courseForSale } from '../../../../functions/catalogue/course-for-sale.ts';
import { quoteOrderTax } from '../../../../functions/orders/order-tax.ts';
import { withNamedPrice } from '../../../../functions/orders/named-price.ts';
import { priceForBuyer } from '../../../../functions/orders/bundles.ts';
import { consumeAll, LIMITS } from '../../../../functions/limits/limits.ts';
import { TaxQuoteRequestSchema } from '../../../lib/checkout-tax.schema.ts';
import { errorResponse, readJson, resultResponse, tooManyRequests } from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';
import { currentUser } from '../../../server/guards.ts';

export const prerender = false;

/** The tax and total for the country and VAT number the buyer gave (a VAT number is checked with VIES). Changes nothing. */
export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, TaxQuoteRequestSchema);
  if ('response' in body) return body.response;
  const client = clientIp(context.request, context.clientAddress);
  const verdict = await consumeAll([[LIMITS.codeChecksPerClient, client]]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  const course = await courseForSale(body.data.courseId, body.data.language, body.data.currency);
  if (!course) return errorResponse(404, 'course_not_found', 'checkout.courseNotFound');
  const user = await currentUser(context);
  // The tax is on what this buyer pays: a bundle lowered by the courses they own, as checkout charges it.
  const priced = withNamedPrice((await priceForBuyer(course, user?.id)).course, body.data.price);
  const answer = priced.ok ? await quoteOrderTax(priced.value, body.data, user?.email, client) : priced;
  return resultResponse(answer, (value) => value);
};
