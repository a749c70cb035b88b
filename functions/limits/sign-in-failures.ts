import { db } from '../db/database.ts';
import { limitsEnabled, SIGN_IN_FAILURES, type Verdict } from './limits.ts';

/**
 * Failed password sign-ins, slowed per source by backoff (the numbers are `SIGN_IN_FAILURES` in
 * limits.ts): unlike a quota of uses, only failures count, a success clears its source, and the
 * owner's own addresses are spared the per-account count.
 */
export function signInDelayS(failures: number, free: number): number {
  const { firstDelayS, maxDelayS } = SIGN_IN_FAILURES;
  return failures < free ? 0 : Math.min(maxDelayS, firstDelayS * 2 ** (failures - free));
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
  const since = new Date(Date.now() - SIGN_IN_FAILURES.windowS * 1000);
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
    readyAt(source, SIGN_IN_FAILURES.freePerSource),
    readyAt(client, SIGN_IN_FAILURES.freePerClient),
    spread ? readyAt(spread, SIGN_IN_FAILURES.freeFromNewAddresses) : 0,
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
