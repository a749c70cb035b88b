import type { APIRoute } from 'astro';
import { ONE_CLICK_WORDING } from '../../../../functions/audience/consent.ts';
import { subscriberOfToken } from '../../../../functions/audience/links.ts';
import { unsubscribe } from '../../../../functions/audience/preferences.ts';
import { asLanguage } from '../../../i18n/languages.ts';
import { errorResponse, readText } from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';

export const prerender = false;

const MAX_BODY_BYTES = 2048;

/**
 * One-click unsubscribe from every marketing mail (RFC 8058), as course update mails have theirs
 * (/api/mail/unsubscribe): mail clients POST `List-Unsubscribe=One-Click` from their own servers, with
 * the subscriber's signed token in the address. Answered at once, the withdrawal recorded.
 */
export const POST: APIRoute = async ({ request, url, clientAddress }) => {
  const read = await readText(request, MAX_BODY_BYTES);
  if ('response' in read) return read.response;
  if (new URLSearchParams(read.text).get('List-Unsubscribe') !== 'One-Click')
    return errorResponse(400, 'invalid_input', 'errors.badRequest');
  const subscriberId = subscriberOfToken(url.searchParams.get('token') ?? '');
  const context = {
    language: asLanguage(url.searchParams.get('lang')),
    source: 'one-click',
    page: url.pathname,
    clientIp: clientIp(request, clientAddress),
  } as const;
  if (!subscriberId || !(await unsubscribe(subscriberId, ONE_CLICK_WORDING, context)))
    return errorResponse(404, 'not_found', 'errors.notFound');
  return new Response('Unsubscribed from every marketing e-mail.', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
