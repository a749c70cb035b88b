import type { APIRoute } from 'astro';
import { CheckoutRequestSchema } from '../../lib/checkout.schema.ts';
import { errorResponse, failureResponse, noStoreJson, readJson, tooManyRequests } from '../../lib/http.ts';
import { checkout } from '../../server/checkout.ts';

export const prerender = false;

/** Starts a checkout: free enrolment completes at once; a paid course answers with the payment page. */
export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, CheckoutRequestSchema);
  if ('response' in body) return body.response;
  const answer = await checkout(context, body.data);
  switch (answer.kind) {
    case 'go':
      return noStoreJson({ redirectUrl: answer.url });
    case 'already_owned':
      return noStoreJson({ alreadyOwned: true, courseUrl: answer.courseUrl }, 409);
    case 'refused':
      return failureResponse(answer.failure);
    case 'too_many':
      return tooManyRequests(answer.retryAfterS, 'checkout.tooManyWait');
    case 'failed':
      return errorResponse(502, 'checkout_failed', 'checkout.failed');
  }
};
