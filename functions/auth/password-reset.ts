import { sql } from 'kysely';
import { auth } from './auth.ts';
import { db } from '../db/database.ts';
import { sendSecurityNotice } from '../account/security-notices.ts';

const identifierFor = (token: string) => `reset-password:${token}`;

/** Whether a reset link can still be used (exists, not expired, not used). */
export async function isResetTokenValid(token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db()
    .selectFrom('verifications')
    .select('id')
    .where('identifier', '=', identifierFor(token))
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return Boolean(row);
}

/** `twoFactor`: the account asks its second factor before the new sign-in is a session. */
export type ResetResult = { ok: true; setCookies: string[]; twoFactor: boolean } | { ok: false; code: 'INVALID_TOKEN' };

/**
 * Sets the new password (the token works once; every other session is revoked), then signs
 * the user in on this browser, so they land on their dashboard.
 */
export async function resetPasswordAndSignIn(token: string, newPassword: string, headers: Headers): Promise<ResetResult> {
  const verification = await db()
    .selectFrom('verifications')
    .innerJoin('users', (join) => join.on(sql<boolean>`users.id::text = verifications.value`))
    .select(['users.email', 'users.id'])
    .where('verifications.identifier', '=', identifierFor(token))
    .where('verifications.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!verification) return { ok: false, code: 'INVALID_TOKEN' };
  try {
    await auth().api.resetPassword({ body: { token, newPassword } });
  } catch {
    return { ok: false, code: 'INVALID_TOKEN' };
  }
  await sendSecurityNotice(db(), verification.id, 'password-changed', { userAgent: headers.get('user-agent') });
  const signedIn = await auth().api.signInEmail({
    body: { email: verification.email, password: newPassword },
    headers,
    returnHeaders: true,
  });
  const twoFactor = (signedIn.response as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect === true;
  return { ok: true, setCookies: signedIn.headers.getSetCookie(), twoFactor };
}
