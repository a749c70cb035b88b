import type { APIRoute } from 'astro';
import { auth, CLIENT_IP_HEADER } from '../../../../functions/auth/auth.ts';
import { admitSignInAttempt, settleSignInAttempt } from '../../../../functions/auth/session.ts';
import { consumeAll, LIMITS, targetKey, type LimitRule } from '../../../../functions/abuse/limits.ts';
import { AUTH_REQUEST_SCHEMAS, type AuthRequestPath } from '../../../lib/auth.schema.ts';
import {
  errorResponse,
  invalidInput,
  isJsonRequest,
  MAX_JSON_BODY_BYTES,
  parseJsonText,
  tooManyRequests,
} from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';

export const prerender = false;

const BASE_PATH = '/api/auth';

/** The endpoints that mail a link, the limits they spend, and the field naming the mailbox. */
const MAILING: Partial<Record<AuthRequestPath, { client: LimitRule; target: 'email' | 'newEmail' }>> = {
  '/sign-up/email': { client: LIMITS.signUpPerClient, target: 'email' },
  '/sign-in/magic-link': { client: LIMITS.linkMailPerClient, target: 'email' },
  '/request-password-reset': { client: LIMITS.linkMailPerClient, target: 'email' },
  '/send-verification-email': { client: LIMITS.linkMailPerClient, target: 'email' },
  '/change-email': { client: LIMITS.linkMailPerClient, target: 'newEmail' },
};

/**
 * better-auth's endpoints behind our own door: the client address it rate-limits by, the islands'
 * validation on every body, limits on whatever sends mail, and sign-in failures slowed per source.
 */
export const ALL: APIRoute = async ({ request, clientAddress, url }) => {
  const ip = clientIp(request, clientAddress);
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, ip);
  if (['GET', 'HEAD'].includes(request.method))
    return apiErrors(await auth().handler(new Request(request.url, { method: request.method, headers })));

  const path = url.pathname.slice(BASE_PATH.length) as AuthRequestPath;
  const body = await request.text().catch(() => undefined);
  if (body === undefined || body.length > MAX_JSON_BODY_BYTES) return errorResponse(413, 'body_too_large', 'errors.badRequest');
  const checked = checkedFields(request, path, body);
  if ('response' in checked) return checked.response;
  const refused = await mailLimitRefusal(path, checked.fields, ip);
  if (refused) return refused;

  const forwarded = new Request(request.url, { method: request.method, headers, body });
  return path === '/sign-in/email'
    ? signInThrottled(forwarded, String(checked.fields.email), ip)
    : apiErrors(await auth().handler(forwarded));
};

/** A body better-auth may see: JSON, not hostile, and valid by the islands' rules where it has some. */
function checkedFields(
  request: Request,
  path: AuthRequestPath,
  body: string,
): { fields: Record<string, unknown> } | { response: Response } {
  const schema = AUTH_REQUEST_SCHEMAS[path] as (typeof AUTH_REQUEST_SCHEMAS)[AuthRequestPath] | undefined;
  if (body === '' && !schema) return { fields: {} };
  if (!isJsonRequest(request)) return { response: errorResponse(415, 'unsupported_media_type', 'errors.badRequest') };
  const parsed = parseJsonText(body);
  if ('response' in parsed) return parsed;
  if (!schema) return { fields: {} };
  const valid = schema.safeParse(parsed.value);
  return valid.success ? { fields: valid.data } : { response: invalidInput(valid.error) };
}

/** The 429 for a request that would mail a link too often (per client, per mailbox), or nothing. */
async function mailLimitRefusal(path: AuthRequestPath, fields: Record<string, unknown>, ip: string) {
  const mailing = MAILING[path];
  if (!mailing) return undefined;
  const target = targetKey(String(fields[mailing.target]));
  const verdict = await consumeAll([
    [mailing.client, ip],
    [LIMITS.linkMailPerAddress, `${path}:${target}`],
  ]);
  if (verdict.allowed) return undefined;
  return tooManyRequests(verdict.retryAfterS, path === '/sign-up/email' ? 'errors.tooManyRequests' : 'errors.linkRecentlySent');
}

/** A password sign-in, admitted by the throttle first and settled by its outcome after. */
async function signInThrottled(forwarded: Request, email: string, ip: string): Promise<Response> {
  const attempt = await admitSignInAttempt(email, ip);
  if (!attempt.allowed) return tooManyRequests(attempt.retryAfterS);
  try {
    const response = await auth().handler(forwarded);
    const outcome = response.status === 200 ? 'succeeded' : response.status === 401 ? 'failed' : 'other';
    await settleSignInAttempt(attempt.attemptId, email, ip, outcome);
    return response;
  } catch (error) {
    await settleSignInAttempt(attempt.attemptId, email, ip, 'other');
    throw error;
  }
}

/** better-auth answers a path it does not know with an empty 404: the API's errors are JSON. */
function apiErrors(response: Response): Response {
  const bodyless = !(response.headers.get('content-type') ?? '').includes('json');
  return response.status === 404 && bodyless ? errorResponse(404, 'not_found', 'errors.notFound') : response;
}
