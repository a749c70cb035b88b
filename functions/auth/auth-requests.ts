import { sendSecurityNotice } from '../account/security-notices.ts';
import { db } from '../db/database.ts';
import { accountChangeRefusal } from './account-change-checks.ts';
import { confirmAddressChange } from './address-change.ts';
import { auth } from './auth.ts';
import { withClientAddress } from './client-address.ts';
import { endpointLimitRefusal } from './endpoint-limits.ts';
import { signInWithPassword } from './password-sign-in.ts';
import { NOT_FOUND, type AuthAnswer, type AuthRefusal } from './refusals.ts';
import { proveSecondFactor } from './second-factor-proof.ts';
import { getSessionState, getSessionUser } from './session.ts';
import { signUpWithoutTelling } from './sign-up.ts';

/**
 * better-auth's endpoints behind the shop's door: the client address it rate-limits by, the
 * endpoints closed, what a session waiting on its second factor may reach, limits on whatever sends
 * mail, sign-in failures slowed per source, proofs asked before account changes, and the owner told
 * of changes by mail. The route (src/pages/api/auth/[...all].ts) reads and checks the body, calls
 * these and answers.
 */

/**
 * better-auth endpoints no browser reaches: list-sessions answers every session's token (Settings
 * lists sessions from the server, by id); get-totp-uri shows the authenticator secret again; the
 * e-mailed second-factor codes are not offered (an authenticator, backup codes or a passkey are).
 */
const CLOSED = new Set([
  '/list-sessions',
  '/two-factor/get-totp-uri',
  '/two-factor/send-otp',
  '/two-factor/verify-otp',
  // OpenID identities: signing in links them (decision 22); Settings lists them from the server.
  // The provider's tokens stay on the server.
  '/link-social',
  '/list-accounts',
  '/get-access-token',
  '/refresh-token',
  '/account-info',
]);

/**
 * All a session waiting on its second factor may do here (decision 26): prove it (a code, a backup
 * code, a passkey), end it, or begin another sign-in. Whatever acts for the signed-in account (its
 * profile, password, address, two-factor, sessions, identities, better-auth's own session read)
 * answers 403 `second_factor_required` until then; a path better-auth adds later is refused too.
 */
const WHILE_SECOND_FACTOR_PENDING = new Set([
  '/sign-out',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
  '/passkey/sign-in-options',
  '/passkey/sign-in',
  '/sign-in/email',
  '/sign-in/magic-link',
  '/sign-in/social',
  '/magic-link/verify',
  '/sign-up/email',
  '/send-verification-email',
  '/verify-email',
  '/request-password-reset',
  '/reset-password',
  '/error',
  '/ok',
]);
const WHILE_SECOND_FACTOR_PENDING_UNDER = ['/callback/', '/reset-password/'];

/** A second factor proved: the session it is proved in is signed in (and may enter the admin area). */
const SECOND_FACTOR = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);

/** Changes the owner is told of by mail, once better-auth made them. */
const NOTIFIED: Partial<Record<string, 'password-changed' | 'two-factor-off'>> = {
  '/change-password': 'password-changed',
  '/two-factor/disable': 'two-factor-off',
};

const SECOND_FACTOR_REQUIRED: AuthRefusal = {
  status: 403,
  code: 'second_factor_required',
  message: 'twoFactor.secondFactorRequired',
};

/** Whether a request may reach `path` at all: not a closed endpoint, nor one a pending session may not use. */
export async function authRequestRefusal(path: string, requestHeaders: Headers): Promise<AuthRefusal | undefined> {
  if (CLOSED.has(path)) return NOT_FOUND;
  if (!allowedWhileSecondFactorPending(path) && (await getSessionState(requestHeaders)).status === 'second-factor-pending')
    return SECOND_FACTOR_REQUIRED;
  return undefined;
}

function allowedWhileSecondFactorPending(path: string): boolean {
  return WHILE_SECOND_FACTOR_PENDING.has(path) || WHILE_SECOND_FACTOR_PENDING_UNDER.some((prefix) => path.startsWith(prefix));
}

/** A GET or HEAD for better-auth; a change-of-address confirmation is watched (address-change.ts). */
export async function readFromAuth(request: Request, path: string, ip: string): Promise<Response> {
  const forwarded = new Request(request.url, { method: request.method, headers: withClientAddress(request.headers, ip) });
  return path === '/verify-email' ? confirmAddressChange(forwarded) : auth().handler(forwarded);
}

export interface AuthSubmission {
  request: Request;
  path: string;
  ip: string;
  /** The body as sent, and its fields as the route's schema checked them. */
  body: string;
  fields: Record<string, unknown>;
}

/** A POST for better-auth, past the shop's limits and checks, through the policy its endpoint needs. */
export async function submitToAuth({ request, path, ip, body, fields }: AuthSubmission): Promise<AuthAnswer> {
  const refusal = (await endpointLimitRefusal(path, fields, ip)) ?? (await accountChangeRefusal(path, request.headers, fields));
  if (refusal) return { refusal };
  const forwarded = new Request(request.url, {
    method: request.method,
    headers: withClientAddress(request.headers, ip),
    body: bodyForAuth(path, fields, body),
  });
  if (path === '/sign-in/email') return signInWithPassword(forwarded, String(fields.email), ip);
  if (path === '/sign-up/email')
    return { response: await signUpWithoutTelling(forwarded, String(fields.email), String(fields.password)) };
  if (SECOND_FACTOR.has(path)) return proveSecondFactor(forwarded, path, String(fields.code), ip);
  return { response: await changeTellingOwner(forwarded, path, request.headers) };
}

/**
 * What better-auth reads. A change of password ends every other session, whatever the request asked;
 * two-factor, passkey, OpenID and unlinking requests pass only their checked fields; others as sent.
 */
function bodyForAuth(path: string, fields: Record<string, unknown>, body: string): string {
  if (path === '/change-password') return JSON.stringify({ ...fields, revokeOtherSessions: true });
  const onlyChecked =
    path.startsWith('/two-factor/') || path.startsWith('/passkey/') || path === '/sign-in/social' || path === '/unlink-account';
  return onlyChecked ? JSON.stringify(fields) : body;
}

/** better-auth's answer; a change the owner is told of (NOTIFIED) is mailed once it is made. */
async function changeTellingOwner(forwarded: Request, path: string, requestHeaders: Headers): Promise<Response> {
  const told = NOTIFIED[path];
  const user = told ? await getSessionUser(requestHeaders) : undefined;
  const response = await auth().handler(forwarded);
  if (told && user && response.status === 200)
    await sendSecurityNotice(db(), user.id, told, { userAgent: requestHeaders.get('user-agent') });
  return response;
}
