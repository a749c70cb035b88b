import { getSessionCookie } from 'better-auth/cookies';
import { auth, type Role } from './auth.ts';
import { db } from '../db/database.ts';
import { asLanguage, type Language } from '../../src/i18n/languages.ts';

export interface SessionUser {
  id: string;
  email: string;
  fullName: string;
  language: Language;
  role: Role;
  /** The session's id (never its token): Settings marks this device by it, the admin gate reads it. */
  sessionId: string;
}

/**
 * A request's session. An account with two-factor on is signed in only by a session that proved a
 * second factor (a code, a backup code or a passkey: `sessions.second_factor_at`); a session begun
 * any other way (an e-mailed sign-in link, an OpenID provider, a confirmation link) waits for one and
 * counts as signed in nowhere: the guards send it to the two-factor page, every read treats it as
 * signed out (decision 26). This is the one place that rule is decided.
 */
export type SessionState =
  { status: 'signed-in'; user: SessionUser } | { status: 'second-factor-pending'; user: SessionUser } | { status: 'signed-out' };

const SIGNED_OUT: SessionState = { status: 'signed-out' };

export async function getSessionState(headers: Headers): Promise<SessionState> {
  // No session cookie, no session: better-auth is not asked (a guest's checkout, a cached page's header call).
  if (!getSessionCookie(headers)) return SIGNED_OUT;
  const session = await auth()
    .api.getSession({ headers })
    .catch(() => null);
  if (!session) return SIGNED_OUT;
  const user = session.user as typeof session.user & { language?: string; role?: string };
  const sessionUser: SessionUser = {
    id: user.id,
    email: user.email,
    fullName: user.name,
    language: asLanguage(user.language),
    role: user.role === 'admin' ? 'admin' : 'user',
    sessionId: session.session.id,
  };
  const pending = await waitsOnSecondFactor(session.session.id);
  return { status: pending ? 'second-factor-pending' : 'signed-in', user: sessionUser };
}

/** The signed-in user for a request's cookies, or undefined (signed out, or waiting on a second factor). */
export async function getSessionUser(headers: Headers): Promise<SessionUser | undefined> {
  const state = await getSessionState(headers);
  return state.status === 'signed-in' ? state.user : undefined;
}

/** Whether a session's account has two-factor on and the session has not proved it (read fresh: no cache). */
async function waitsOnSecondFactor(sessionId: string): Promise<boolean> {
  const row = await db()
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.two_factor_enabled', 'sessions.second_factor_at'])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
  return Boolean(row?.two_factor_enabled) && !row?.second_factor_at;
}
