import type { APIRoute } from 'astro';
import { subscribeFromForm } from '../../../../functions/audience/subscribe.ts';
import { consumeAll, LIMITS, targetKey } from '../../../../functions/limits/limits.ts';
import { SubscribeRequestSchema } from '../../../lib/audience.schema.ts';
import { noStoreJson, readJson, tooManyRequests } from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';

export const prerender = false;

/**
 * A sign-up form (footer, article, course page, /subscribe): records the consent as asked and mails
 * a confirmation link. Answers 202 whatever the address's standing on the list (no enumeration).
 */
export const POST: APIRoute = async ({ request, clientAddress }) => {
  const body = await readJson(request, SubscribeRequestSchema);
  if ('response' in body) return body.response;
  const ip = clientIp(request, clientAddress);
  // Each request mails the address: one client cannot mail many, nor many clients one.
  const verdict = await consumeAll([
    [LIMITS.subscribePerClient, ip],
    [LIMITS.subscribePerAddress, targetKey(body.data.email)],
  ]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  await subscribeFromForm(body.data, ip);
  return noStoreJson({ sent: true }, 202);
};
