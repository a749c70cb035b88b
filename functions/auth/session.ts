import { auth, type Role } from './auth.ts';
import { db } from '../db/database.ts';
import { limitsEnabled, type Verdict } from '../limits/limits.ts';
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

/**
 * Failed sign-ins slow down their source, never the owner. Per (account, client address) after
 * FREE_FAILURES_PER_SOURCE and per client address after FREE_FAILURES_PER_CLIENT; per account, only
 * addresses it has no session from, after FREE_FAILURES_FROM_NEW_ADDRESSES of theirs (many addresses
 * guessing one password). Each further failure doubles the wait (30 s, 1 min … at most 15 min). A
 * thousand failures from one address do not stop the owner signing in from another, and nothing
 * stops the owner asking for a sign-in or reset link.
 */
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const FREE_FAILURES_PER_SOURCE = 5;
export const FREE_FAILURES_PER_CLIENT = 20;
export const FREE_FAILURES_FROM_NEW_ADDRESSES = 20;
const FIRST_DELAY_S = 30;
const MAX_DELAY_S = 15 * 60;

export function signInDelayS(failures: number, free: number): number {
  return failures < free ? 0 : Math.min(MAX_DELAY_S, FIRST_DELAY_S * 2 ** (failures - free));
}

/**
 * Admits a password sign-in attempt, or says how long its source must wait. An admitted attempt is
 * written down at once, as a failure until `settleSignInAttempt` says otherwise, so a burst of
 * attempts racing each other counts every one of them.
 */
export async function admitSignInAttempt(
  email: string,
  clientIp: string,
): Promise<{ allowed: true; attemptId: string | undefined } | { allowed: false; retryAfterS: number }> {
  if (!limitsEnabled()) return { allowed: true, attemptId: undefined };
  const account = normalEmail(email);
  const attempt = await db()
    .insertInto('sign_in_failures')
    .values({ email: account, client_ip: clientIp.slice(0, 100) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const verdict = await throttle(account, clientIp, attempt.id);
  if (verdict.allowed) return { allowed: true, attemptId: attempt.id };
  await db().deleteFrom('sign_in_failures').where('id', '=', attempt.id).execute();
  return verdict;
}

/** A wrong password stays a failure; a success clears its source's failures; anything else never happened. */
export async function settleSignInAttempt(
  attemptId: string | undefined,
  email: string,
  clientIp: string,
  outcome: 'succeeded' | 'failed' | 'other',
): Promise<void> {
  if (attemptId === undefined || outcome === 'failed') return;
  if (outcome === 'other') await db().deleteFrom('sign_in_failures').where('id', '=', attemptId).execute();
  else
    await db()
      .deleteFrom('sign_in_failures')
      .where('email', '=', normalEmail(email))
      .where('client_ip', '=', clientIp.slice(0, 100))
      .execute();
}

async function throttle(account: string, clientIp: string, ownAttempt: string): Promise<Verdict> {
  const since = new Date(Date.now() - SIGN_IN_FAILURE_WINDOW_MS);
  // Addresses the account holds a session from: its owner's devices.
  const knownAddresses = db()
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.ip_address')
    .where('users.email', '=', account)
    .where('sessions.ip_address', 'is not', null);
  const failures = (filter: { email?: string; clientIp?: string; newAddressesOnly?: boolean }) =>
    db()
      .selectFrom('sign_in_failures')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.max('created_at').as('last')])
      .$if(filter.clientIp !== undefined, (query) => query.where('client_ip', '=', filter.clientIp!))
      .$if(filter.email !== undefined, (query) => query.where('email', '=', filter.email!))
      .$if(filter.newAddressesOnly === true, (query) => query.where('client_ip', 'not in', knownAddresses.$castTo<string>()))
      .where('id', '<>', ownAttempt)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
  const known = await knownAddresses.where('sessions.ip_address', '=', clientIp).executeTakeFirst();
  const [source, client, spread] = await Promise.all([
    failures({ email: account, clientIp }),
    failures({ clientIp }),
    known ? undefined : failures({ email: account, newAddressesOnly: true }),
  ]);
  const waitUntil = Math.max(
    readyAt(source, FREE_FAILURES_PER_SOURCE),
    readyAt(client, FREE_FAILURES_PER_CLIENT),
    spread ? readyAt(spread, FREE_FAILURES_FROM_NEW_ADDRESSES) : 0,
  );
  const waitS = Math.ceil((waitUntil - Date.now()) / 1000);
  return waitS > 0 ? { allowed: false, retryAfterS: waitS } : { allowed: true };
}

function readyAt(failures: { count: string; last: Date | null }, free: number): number {
  return failures.last ? failures.last.getTime() + signInDelayS(Number(failures.count), free) * 1000 : 0;
}

function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}
