import type { APIRoute } from 'astro';
import { auth } from '../../../../functions/auth/auth.ts';
import { CLIENT_IP_HEADER } from '../../../../functions/auth/client-address.ts';
import { admitSignInAttempt, settleSignInAttempt } from '../../../../functions/limits/sign-in-failures.ts';
import { consumeAll, giveBack, LIMITS, targetKey, type LimitRule } from '../../../../functions/limits/limits.ts';
import { AUTH_REQUEST_SCHEMAS, type AuthRequestPath } from '../../../lib/auth.schema.ts';
import {
  errorResponse,
  invalidInput,
  isJsonRequest,
  MAX_JSON_BODY_BYTES,
  parseJsonText,
  readText,
  tooManyRequests,
} from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';
import {
  accountProvingSecondFactor,
  markSecondFactor,
  releaseTotpCode,
  reserveTotpCode,
  twoFactorEnabled,
} from '../../../../functions/auth/second-factor.ts';
import { sessionTokenIn } from '../../../../functions/auth/cookies.ts';
import { signUpWithoutTelling } from '../../../../functions/auth/sign-up.ts';
import { hasVerifiedEmail } from '../../../../functions/auth/passkeys.ts';
import { getSessionState, getSessionUser } from '../../../../functions/auth/session.ts';
import { hasPassword, sessionIsFresh } from '../../../../functions/account/account.ts';
import { revokeOtherSessions } from '../../../../functions/account/sessions.ts';
import { sendSecurityNotice } from '../../../../functions/account/security-notices.ts';
import { claimsOf } from '../../../../functions/auth/link-tokens.ts';
import { db } from '../../../../functions/db/database.ts';
import { findIdentity, otherWayToSignIn } from '../../../../functions/account/identities.ts';

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

/** Changes to the account that ask its owner to prove it is them again (password, or a fresh sign-in). */
const REAUTHENTICATED = new Set(['/two-factor/enable', '/two-factor/disable', '/two-factor/generate-backup-codes']);

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

/**
 * better-auth's endpoints behind our own door: the client address it rate-limits by, the islands'
 * validation on every body, limits on whatever sends mail, and sign-in failures slowed per source.
 */
export const ALL: APIRoute = async ({ request, clientAddress, url }) => {
  const ip = clientIp(request, clientAddress);
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, ip);
  const path = url.pathname.slice(BASE_PATH.length);
  if (CLOSED.has(path)) return errorResponse(404, 'not_found', 'errors.notFound');
  if (!allowedWhileSecondFactorPending(path) && (await getSessionState(request.headers)).status === 'second-factor-pending')
    return errorResponse(403, 'second_factor_required', 'twoFactor.secondFactorRequired');
  if (['GET', 'HEAD'].includes(request.method)) {
    const forwarded = new Request(request.url, { method: request.method, headers });
    return path === '/verify-email' ? verifyEmailWatched(forwarded, url) : apiErrors(await auth().handler(forwarded));
  }

  const read = await readText(request, MAX_JSON_BODY_BYTES);
  if ('response' in read) return read.response;
  const body = read.text;
  const checked = checkedFields(request, path as AuthRequestPath, body);
  if ('response' in checked) return checked.response;
  const refused = await mailLimitRefusal(path as AuthRequestPath, checked.fields, ip);
  if (refused) return refused;

  if (path.startsWith('/passkey/')) {
    const rule = path === '/passkey/sign-in' ? LIMITS.passkeySignInPerClient : LIMITS.passkeyOptionsPerClient;
    const verdict = await consumeAll([[rule, ip]]);
    if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  }

  if (path === '/two-factor/enable') {
    const refused = await unprovenAddressRefusal(request.headers);
    if (refused) return refused;
  }
  if (REAUTHENTICATED.has(path)) {
    const refused = await reauthenticationRefusal(request.headers);
    if (refused) return refused;
  }

  // A change of password ends every other session, whatever the request asked.
  const sent =
    path === '/change-password'
      ? JSON.stringify({ ...checked.fields, revokeOtherSessions: true })
      : path.startsWith('/two-factor/') ||
          path.startsWith('/passkey/') ||
          path === '/sign-in/social' ||
          path === '/unlink-account'
        ? JSON.stringify(checked.fields)
        : body;
  const forwarded = new Request(request.url, { method: request.method, headers, body: sent });
  if (path === '/sign-in/email') return signInThrottled(forwarded, String(checked.fields.email), ip);
  if (path === '/sign-up/email')
    return signUpWithoutTelling(forwarded, String(checked.fields.email), String(checked.fields.password));
  if (path === '/unlink-account') {
    const refused = await unlinkRefusal(request.headers, String(checked.fields.accountId));
    if (refused) return refused;
  }
  if (SECOND_FACTOR.has(path)) return secondFactorProved(forwarded, path, String(checked.fields.code), ip);
  const told = NOTIFIED[path];
  const user = told ? await getSessionUser(request.headers) : undefined;
  const response = apiErrors(await auth().handler(forwarded));
  if (told && user && response.status === 200)
    await sendSecurityNotice(db(), user.id, told, { userAgent: request.headers.get('user-agent') });
  return response;
};

function allowedWhileSecondFactorPending(path: string): boolean {
  return WHILE_SECOND_FACTOR_PENDING.has(path) || WHILE_SECOND_FACTOR_PENDING_UNDER.some((prefix) => path.startsWith(prefix));
}

/** Changes the owner is told of by mail, once better-auth made them. */
const NOTIFIED: Partial<Record<string, 'password-changed' | 'two-factor-off'>> = {
  '/change-password': 'password-changed',
  '/two-factor/disable': 'two-factor-off',
};

/**
 * Only an OpenID identity of the signed-in account is unlinked here (never its password), and only
 * while another way to sign in remains: better-auth refuses the last one.
 */
async function unlinkRefusal(requestHeaders: Headers, accountId: string): Promise<Response | undefined> {
  const user = await getSessionUser(requestHeaders);
  if (!user) return undefined;
  const identity = await findIdentity(user.id, accountId);
  if (!identity) return errorResponse(404, 'not_found', 'errors.notFound');
  if (!(await otherWayToSignIn(user.id, identity.id))) return errorResponse(409, 'last_way_to_sign_in', 'identities.lastWay');
  return undefined;
}

/**
 * Two-factor, as a passkey, only for an account that proved its address: an authenticator set up by
 * whoever opened the account with someone else's address would outlive the owner claiming it.
 */
async function unprovenAddressRefusal(requestHeaders: Headers): Promise<Response | undefined> {
  const user = await getSessionUser(requestHeaders);
  if (!user || (await hasVerifiedEmail(user.id))) return undefined;
  return errorResponse(403, 'unverified_email', 'twoFactor.verifyFirst');
}

/** An account without a password proves itself by a sign-in of the last minutes (a fresh e-mailed link). */
async function reauthenticationRefusal(requestHeaders: Headers): Promise<Response | undefined> {
  const user = await getSessionUser(requestHeaders);
  if (!user || (await hasPassword(user.id)) || (await sessionIsFresh(user.id, requestHeaders))) return undefined;
  return errorResponse(403, 'sign_in_again', 'twoFactor.signInAgain');
}

/**
 * A code from the authenticator or a backup code, for a password sign-in waiting on it or for a
 * session begun without one (a sign-in link, OpenID) finishing its sign-in (decision 26). Wrong codes
 * are limited per (account, client), then per account (limits.ts); an authenticator code works once;
 * on success the session is marked as proven, and turning two-factor on ends the account's other sessions.
 */
async function secondFactorProved(forwarded: Request, path: string, code: string, ip: string): Promise<Response> {
  const cookieHeader = forwarded.headers.get('cookie') ?? '';
  const userId = await accountProvingSecondFactor(cookieHeader);
  if (!userId) return apiErrors(await auth().handler(forwarded));
  const failures = [
    [LIMITS.secondFactorPerSource, `${userId}:${ip}`],
    [LIMITS.secondFactorPerAccount, userId],
  ] as const;
  const verdict = await consumeAll([[LIMITS.secondFactorPerClient, ip], ...failures]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS, 'twoFactor.tooManyAttempts');
  const totp = path === '/two-factor/verify-totp';
  if (totp && !(await reserveTotpCode(userId, code))) return errorResponse(401, 'code_used', 'twoFactor.codeUsed');
  const wasEnabled = await twoFactorEnabled(userId);
  let response: Response;
  try {
    response = await auth().handler(forwarded);
  } catch (error) {
    if (totp) await releaseTotpCode(userId, code);
    throw error;
  }
  if (response.status !== 200) {
    if (totp) await releaseTotpCode(userId, code);
    return apiErrors(response);
  }
  await giveBack(failures);
  const sessionToken = sessionTokenIn(response.headers.getSetCookie()) ?? sessionTokenIn(cookieHeader.split(';'));
  if (sessionToken) await markSecondFactor(sessionToken, userId);
  if (!wasEnabled) {
    await revokeOtherSessions(userId, sessionToken);
    await sendSecurityNotice(db(), userId, 'two-factor-on', { userAgent: forwarded.headers.get('user-agent') });
  }
  return response;
}

/**
 * The confirmation link of a change of address: once the address has changed, every session but
 * the one that opened the link ends.
 */
async function verifyEmailWatched(forwarded: Request, url: URL): Promise<Response> {
  const userId = changeOfAddressAccount(url.searchParams.get('token') ?? '');
  const emailOf = async () =>
    userId ? (await db().selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email : undefined;
  const before = await emailOf();
  const response = apiErrors(await auth().handler(forwarded));
  const after = await emailOf();
  if (userId && before && after && before !== after) {
    const opener =
      sessionTokenIn(response.headers.getSetCookie()) ?? sessionTokenIn((forwarded.headers.get('cookie') ?? '').split(';'));
    await revokeOtherSessions(userId, opener);
    await sendSecurityNotice(db(), userId, 'email-changed', {
      userAgent: forwarded.headers.get('user-agent'),
      to: before,
      newEmail: after,
    });
  }
  return response;
}

/** The account a change-of-address confirmation token names (read only; better-auth checks its signature). */
function changeOfAddressAccount(token: string): string | undefined {
  try {
    const claims = claimsOf(token);
    return claims.requestType === 'change-email-verification' &&
      typeof claims.userId === 'string' &&
      /^[0-9a-f-]{36}$/.test(claims.userId)
      ? claims.userId
      : undefined;
  } catch {
    return undefined;
  }
}

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
