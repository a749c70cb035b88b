import type { APIRoute } from 'astro';
import { auth, CLIENT_IP_HEADER } from '../../../../functions/auth/auth.ts';
import { isAccountLocked, recordSignInResult } from '../../../../functions/auth/session.ts';
import { containsNul, errorResponse } from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';

export const prerender = false;

const SIGN_IN_PATH = '/api/auth/sign-in/email';

/** better-auth's endpoints, with the client address it rate-limits by, and a limit per account on sign-in. */
export const ALL: APIRoute = async ({ request, clientAddress, url }) => {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, clientIp(request, clientAddress));
  const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.text();
  if (body !== undefined && hasNul(body)) return errorResponse(400, 'invalid_input', 'errors.badRequest');
  const forwarded = new Request(request.url, { method: request.method, headers, ...(body === undefined ? {} : { body }) });

  if (url.pathname !== SIGN_IN_PATH || body === undefined) return auth().handler(forwarded);
  const email = emailOf(body);
  if (email && (await isAccountLocked(email))) return errorResponse(429, 'too_many_attempts', 'errors.tooManyRequests');
  const response = await auth().handler(forwarded);
  if (email && (response.status === 200 || response.status === 401)) await recordSignInResult(email, response.status === 200);
  return response;
};

function hasNul(body: string): boolean {
  if (body.includes('\u0000')) return true;
  try {
    return containsNul(JSON.parse(body));
  } catch {
    return false;
  }
}

function emailOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const email = (parsed as { email?: unknown } | null)?.email;
    return typeof email === 'string' && email.length <= 320 ? email : undefined;
  } catch {
    return undefined;
  }
}
