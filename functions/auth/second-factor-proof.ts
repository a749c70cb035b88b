import { revokeOtherSessions } from '../account/sessions.ts';
import { sendSecurityNotice } from '../account/security-notices.ts';
import { db } from '../db/database.ts';
import { consumeAll, giveBack, LIMITS } from '../limits/limits.ts';
import { auth } from './auth.ts';
import { sessionTokenIn } from './cookies.ts';
import { tooManyAttempts, type AuthAnswer } from './refusals.ts';
import {
  accountProvingSecondFactor,
  markSecondFactor,
  releaseTotpCode,
  reserveTotpCode,
  twoFactorEnabled,
} from './second-factor.ts';

/**
 * A code from the authenticator or a backup code, for a password sign-in waiting on it or for a
 * session begun without one (a sign-in link, OpenID) finishing its sign-in (decision 26). Wrong codes
 * are limited per (account, client), then per account (limits.ts); an authenticator code works once;
 * on success the session is marked as proven, and turning two-factor on ends the account's other sessions.
 */
export async function proveSecondFactor(forwarded: Request, path: string, code: string, ip: string): Promise<AuthAnswer> {
  const cookieHeader = forwarded.headers.get('cookie') ?? '';
  const userId = await accountProvingSecondFactor(cookieHeader);
  if (!userId) return { response: await auth().handler(forwarded) };
  const failures = [
    [LIMITS.secondFactorPerSource, `${userId}:${ip}`],
    [LIMITS.secondFactorPerAccount, userId],
  ] as const;
  const verdict = await consumeAll([[LIMITS.secondFactorPerClient, ip], ...failures]);
  if (!verdict.allowed) return { refusal: tooManyAttempts(verdict.retryAfterS, 'twoFactor.tooManyAttempts') };
  const totp = path === '/two-factor/verify-totp';
  if (totp && !(await reserveTotpCode(userId, code)))
    return { refusal: { status: 401, code: 'code_used', message: 'twoFactor.codeUsed' } };
  const wasEnabled = await twoFactorEnabled(userId);
  const response = await checkedCode(forwarded, totp ? { userId, code } : undefined);
  if (response.status !== 200) return { response };
  await giveBack(failures);
  const sessionToken = sessionTokenIn(response.headers.getSetCookie()) ?? sessionTokenIn(cookieHeader.split(';'));
  if (sessionToken) await markSecondFactor(sessionToken, userId);
  if (!wasEnabled) {
    await revokeOtherSessions(userId, sessionToken);
    await sendSecurityNotice(db(), userId, 'two-factor-on', { userAgent: forwarded.headers.get('user-agent') });
  }
  return { response };
}

/** better-auth's check of the code; an authenticator code it refuses (or fails on) is free again. */
async function checkedCode(forwarded: Request, reserved: { userId: string; code: string } | undefined): Promise<Response> {
  let response: Response;
  try {
    response = await auth().handler(forwarded);
  } catch (error) {
    if (reserved) await releaseTotpCode(reserved.userId, reserved.code);
    throw error;
  }
  if (response.status !== 200 && reserved) await releaseTotpCode(reserved.userId, reserved.code);
  return response;
}
