import { db } from '../db/database.ts';
import { auth } from '../auth/auth.ts';
import { describeDevice } from './devices.ts';

/** A signed-in device as Settings lists it: what it is and when it was used, never its token. */
export interface SessionView {
  id: string;
  browser: string;
  os: string;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
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
