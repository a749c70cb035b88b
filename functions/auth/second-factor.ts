import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { devToolsEnabled } from '../dev-tools.ts';
import type { Role } from '../../src/lib/admin/users.schema.ts';
import { CHALLENGE_COOKIE, cookieValue, sessionTokenIn } from './cookies.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * The second factor as the shop enforces it, over better-auth's two-factor plugin. The plugin asks
 * an authenticator code of password sign-ins only; the shop asks one of every session of an account
 * with two-factor on, whatever way it signed in (a password, an e-mailed link, a passkey, an OpenID
 * provider): a session counts as proven once it passed a code, a backup code or a passkey
 * (`sessions.second_factor_at`), and is not signed in before (functions/auth/session.ts).
 */

/** How long an authenticator code stays refused after its use: past the ±1 step better-auth accepts. */
const USED_CODE_MEMORY = '3 minutes';

/**
 * Whether an admin must still turn two-factor on before the admin area opens: every admin needs it,
 * except while the developer tools are on (the embedded demo, whose admin signs in with a published
 * password; the admin area says so). That the session proved it is the session's rule (session.ts).
 */
export async function adminNeedsTwoFactor(user: { id: string; role: Role }): Promise<boolean> {
  if (user.role !== 'admin' || !secondFactorRequiredForAdmins()) return false;
  return !(await twoFactorEnabled(user.id));
}

export function secondFactorRequiredForAdmins(): boolean {
  return !devToolsEnabled();
}

/** Marks a session as having proved a second factor. */
export async function markSecondFactor(sessionToken: string, userId: string): Promise<void> {
  await db()
    .updateTable('sessions')
    .set({ second_factor_at: new Date() })
    .where('token', '=', sessionToken)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Reserves an authenticator code for its one use, or says it was used already (by this request's
 * twin too: the primary key decides). A code the check then refuses is released again.
 */
export async function reserveTotpCode(userId: string, code: string): Promise<boolean> {
  await db()
    .deleteFrom('used_totp_codes')
    .where('used_at', '<', sql<Date>`now() - ${USED_CODE_MEMORY}::interval`)
    .execute();
  const reserved = await db()
    .insertInto('used_totp_codes')
    .values({ user_id: userId, code })
    .onConflict((conflict) => conflict.columns(['user_id', 'code']).doNothing())
    .returning('code')
    .executeTakeFirst();
  return Boolean(reserved);
}

export async function releaseTotpCode(userId: string, code: string): Promise<void> {
  await db().deleteFrom('used_totp_codes').where('user_id', '=', userId).where('code', '=', code).execute();
}

/**
 * The account a request is about to prove a second factor for: the signed-in one, or the one a
 * password sign-in left waiting (better-auth's challenge cookie names a row only the server knows).
 */
export async function accountProvingSecondFactor(cookieHeader: string): Promise<string | undefined> {
  const cookies = cookieHeader.split(';');
  const sessionToken = sessionTokenIn(cookies);
  if (sessionToken) {
    const session = await db()
      .selectFrom('sessions')
      .select('user_id')
      .where('token', '=', sessionToken)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    if (session) return session.user_id;
  }
  const challenge = cookieValue(cookies, CHALLENGE_COOKIE);
  if (!challenge) return undefined;
  const waiting = await db()
    .selectFrom('verifications')
    .select('value')
    .where('identifier', '=', challenge)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return waiting && isUuid(waiting.value) ? waiting.value : undefined;
}

/** Whether an account has two-factor on (its authenticator confirmed). */
export async function twoFactorEnabled(userId: string): Promise<boolean> {
  const row = await db().selectFrom('users').select('two_factor_enabled').where('id', '=', userId).executeTakeFirst();
  return Boolean(row?.two_factor_enabled);
}
