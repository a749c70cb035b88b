import Bowser from 'bowser';
import { db } from '../db/database.ts';
import { auth } from '../auth/auth.ts';

/** A signed-in device as Settings lists it: what it is and when it was used, never its token. */
export interface SessionView {
  id: string;
  browser: string;
  os: string;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** The browser and system a user agent names (`Chrome 120`, `Windows 10`); empty when it names none. */
export function describeDevice(userAgent: string | null | undefined): { browser: string; os: string } {
  if (!userAgent) return { browser: '', os: '' };
  const parsed = Bowser.parse(userAgent.slice(0, 1000));
  const major = parsed.browser.version?.split('.')[0];
  const browser = [parsed.browser.name, major].filter(Boolean).join(' ');
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ');
  return { browser, os };
}

/** A device's name for "seen before": browser and system families, without versions that change with updates. */
export function deviceKey(userAgent: string | null | undefined): string {
  if (!userAgent) return 'unknown';
  const parsed = Bowser.parse(userAgent.slice(0, 1000));
  return `${parsed.browser.name ?? 'unknown'} / ${parsed.os.name ?? 'unknown'} / ${parsed.platform.type ?? 'unknown'}`.slice(
    0,
    200,
  );
}

/** The account's sessions that have not expired, newest activity first, this one marked. */
export async function listSessions(userId: string, currentSessionId: string): Promise<SessionView[]> {
  const rows = await db()
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .orderBy('updated_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    ...describeDevice(row.user_agent),
    createdAt: row.created_at.toISOString(),
    lastActiveAt: row.updated_at.toISOString(),
    current: row.id === currentSessionId,
  }));
}

/**
 * Signs one of the account's sessions out (better-auth's revoke-session, by the token only the
 * server reads). False when the account has no such session.
 */
export async function revokeSessionById(userId: string, sessionId: string, headers: Headers): Promise<boolean> {
  const session = await db()
    .selectFrom('sessions')
    .select('token')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!session) return false;
  await auth().api.revokeSession({ body: { token: session.token }, headers });
  return true;
}

/** Ends every session of an account but the one given (after a change of password or address). */
export async function revokeOtherSessions(userId: string, keepSessionToken: string | undefined): Promise<void> {
  await db()
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(keepSessionToken !== undefined, (query) => query.where('token', '<>', keepSessionToken!))
    .execute();
}
