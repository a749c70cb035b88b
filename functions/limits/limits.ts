import { sql } from 'kysely';
import { db, type Db } from '../db/database.ts';
import { env } from '../env.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';

/** A fixed window: at most `max` uses per key in `windowS` seconds from the window's first use. */
export interface LimitRule {
  name: string;
  max: number;
  windowS: number;
}

/**
 * Every limit on what sends mail or costs money. Per-address rules key on the target address
 * (`targetKey`), so a mailbox cannot be flooded from many clients; per-client rules on the client's
 * address, so one client cannot spread over many mailboxes.
 */
export const LIMITS = {
  checkoutPerClient: { name: 'checkout:client', max: 10, windowS: 10 * 60 },
  checkoutPerAddress: { name: 'checkout:address', max: 5, windowS: 60 * 60 },
  /** Trying discount codes: enough for a buyer's typos, too few to guess codes. */
  codeChecksPerClient: { name: 'code-check:client', max: 20, windowS: 10 * 60 },
  /** Each saved review purges the catalogue's cached pages: a buyer rewriting in a loop must not keep them cold. */
  reviewWritesPerAccount: { name: 'review-write:account', max: 20, windowS: 60 * 60 },
  contactPerClient: { name: 'contact:client', max: 5, windowS: 60 * 60 },
  contactPerAddress: { name: 'contact:address', max: 3, windowS: 60 * 60 },
  /**
   * Sign-ups to the shop's news: each sends a confirmation mail. Refused the same whether or not the
   * address is on the list, so a refusal tells nothing about it.
   */
  subscribePerClient: { name: 'subscribe:client', max: 10, windowS: 60 * 60 },
  subscribePerAddress: { name: 'subscribe:address', max: 3, windowS: 60 * 60 },
  signUpPerClient: { name: 'sign-up:client', max: 10, windowS: 60 * 60 },
  linkMailPerClient: { name: 'link-mail:client', max: 10, windowS: 15 * 60 },
  /**
   * One sign-in link, one reset link and one verification mail per address every 3 minutes. Every
   * mail that leaves goes to the address's owner and stays valid past the gap (sign-in 15 min,
   * reset 60 min, verification 24 h): asking on the owner's behalf can hold back a *new* link for
   * at most 3 minutes, and never leaves the owner without a working one.
   */
  linkMailPerAddress: { name: 'link-mail:address', max: 1, windowS: 3 * 60 },
  /**
   * Wrong second-factor codes (authenticator or backup; a right one is given back). better-auth gives a
   * signed-in session proving itself no per-challenge count, so these bound guessing. Whoever holds the
   * password or the mailbox can send codes, so they count per (account, client) first: one source that
   * guesses stops there, and the owner's right code from anywhere else still goes through. The per-account
   * cap is for guessing spread over many sources: it takes six sources at their own limit to reach, far
   * past an owner's typos, and holds the odds of guessing a ±1-step six-digit code to about 0.4 % a day.
   */
  secondFactorPerSource: { name: 'second-factor:source', max: 10, windowS: 15 * 60 },
  secondFactorPerAccount: { name: 'second-factor:account', max: 60, windowS: 60 * 60 },
  secondFactorPerClient: { name: 'second-factor:client', max: 30, windowS: 15 * 60 },
  /**
   * Passkey ceremonies: sign-in answers per client (a ceremony attempted), and adding or removing one
   * per account (both check the password). A sign-in's options are asked on every view of the login
   * page (passkey autofill waits there), so they have a bound of their own, against filling the
   * challenge table (each keeps a row for five minutes), not the sign-in's.
   */
  passkeySignInPerClient: { name: 'passkey-sign-in:client', max: 60, windowS: 15 * 60 },
  passkeyOptionsPerClient: { name: 'passkey-options:client', max: 600, windowS: 15 * 60 },
  passkeyChangesPerAccount: { name: 'passkey-change:account', max: 20, windowS: 60 * 60 },
  /**
   * Browsers' error reports, the one limit counted by its own rows (admin/client-logs.ts: the reports
   * in the last window, under a per-address lock) and never switched off: it bounds what a public
   * endpoint writes to the database, so it holds in tests too.
   */
  clientReportsPerClient: { name: 'client-report:client', max: 10, windowS: 60 },
} as const satisfies Record<string, LimitRule>;

/**
 * Failed password sign-ins slow down their source, never the owner (sign-in-failures.ts). Per
 * (account, client address) after `freePerSource` and per client address after `freePerClient`;
 * per account, only addresses it has no session from, after `freeFromNewAddresses` of theirs (many
 * addresses guessing one password). Each further failure doubles the wait (30 s, 1 min … at most
 * 15 min). A thousand failures from one address do not stop the owner signing in from another, and
 * nothing stops the owner asking for a sign-in or reset link.
 */
export const SIGN_IN_FAILURES = {
  windowS: 15 * 60,
  freePerSource: 5,
  freePerClient: 20,
  freeFromNewAddresses: 20,
  firstDelayS: 30,
  maxDelayS: 15 * 60,
} as const;

/**
 * better-auth's own limiter, per client address and endpoint (auth.ts), behind the shop's: it stays
 * because it is the only bound on every better-auth endpoint the shop names no rule for (plugins add
 * endpoints as they update), and its window runs from the last admitted request rather than the
 * first, so these numbers in the shop's fixed window would admit up to twice as many at a window's
 * edge. Seconds and uses, as better-auth spells them.
 */
export const AUTH_ENDPOINT_LIMITS = {
  default: { window: 60, max: 100 },
  paths: {
    '/sign-in/email': { window: 60, max: 10 },
    '/sign-up/email': { window: 60, max: 5 },
    '/request-password-reset': { window: 60, max: 5 },
    '/change-password': { window: 60, max: 10 },
    '/sign-in/magic-link': { window: 60, max: 5 },
    '/change-email': { window: 60, max: 5 },
    '/send-verification-email': { window: 60, max: 5 },
    '/sign-in/social': { window: 60, max: 10 },
    '/unlink-account': { window: 60, max: 10 },
  },
} as const;

export type Verdict = { allowed: true } | { allowed: false; retryAfterS: number };

/** On unless switched off (never in production); off by default only under NODE_ENV=test. */
export function limitsEnabled(): boolean {
  const { AUTH_RATE_LIMIT, NODE_ENV } = env();
  return AUTH_RATE_LIMIT ? AUTH_RATE_LIMIT === 'on' : NODE_ENV !== 'test';
}

/** One mailbox, however it is spelt (mail/mailbox-key.ts): a `+tag` or Gmail's dots do not make a new target. */
export function targetKey(email: string): string {
  return mailboxKey(email).slice(0, 400);
}

/**
 * Counts one use of each rule for its key, in order and in one statement (instances share the rows;
 * a checkout spends two limits in one round trip): a use after a refused one is not counted, as if
 * the rules were checked one by one. Whether limits are on is consumeAll's to ask: call that.
 */
export async function consumeInOrder(uses: readonly (readonly [LimitRule, string])[]): Promise<Verdict> {
  const name = (n: number) => sql.id(`use_${n}`);
  const counted = uses.map(([rule, key], n) => {
    const window = `${rule.windowS} seconds`;
    const use = sql`${rule.name}, ${key.slice(0, 400)}, now(), 1`;
    const source =
      n === 0 ? sql`VALUES (${use})` : sql`SELECT ${use} WHERE (SELECT hits FROM ${name(n - 1)}) <= ${uses[n - 1]![0].max}`;
    return sql`${name(n)} AS (
      INSERT INTO usage_limits AS used (rule, key, window_start, hits) ${source}
      ON CONFLICT (rule, key) DO UPDATE SET
        window_start = CASE WHEN used.window_start <= now() - ${window}::interval THEN now() ELSE used.window_start END,
        hits = CASE WHEN used.window_start <= now() - ${window}::interval THEN 1 ELSE used.hits + 1 END
      RETURNING hits, ceil(extract(epoch FROM window_start + ${window}::interval - now()))::int AS retry_after_s)`;
  });
  const answers = uses.map((_, n) => sql`SELECT ${n}::int AS n, hits, retry_after_s FROM ${name(n)}`);
  const { rows } = await sql<{ n: number; hits: number; retry_after_s: number }>`
    WITH ${sql.join(counted)} ${sql.join(answers, sql` UNION ALL `)}`.execute(db());
  for (const { n, hits, retry_after_s } of rows.sort((a, b) => a.n - b.n))
    if (hits > uses[n]![0].max) return { allowed: false, retryAfterS: Math.max(1, retry_after_s) };
  return { allowed: true };
}

/** Checks the rules in order and stops at the first refusal, so a refused request spends no later quota. */
export async function consumeAll(uses: readonly (readonly [LimitRule, string | undefined])[]): Promise<Verdict> {
  if (!limitsEnabled()) return { allowed: true };
  const keyed = uses.filter((use): use is readonly [LimitRule, string] => use[1] !== undefined);
  return keyed.length === 0 ? { allowed: true } : consumeInOrder(keyed);
}

/** Takes back uses `consumeAll` counted that the rules do not limit after all (a right second-factor code). */
export async function giveBack(uses: readonly (readonly [LimitRule, string])[]): Promise<void> {
  if (!limitsEnabled()) return;
  // A count is never zero (the table's check): a last use goes with its row.
  for (const [rule, key] of uses)
    await sql`
      WITH last AS (DELETE FROM usage_limits WHERE rule = ${rule.name} AND key = ${key.slice(0, 400)} AND hits <= 1)
      UPDATE usage_limits SET hits = hits - 1 WHERE rule = ${rule.name} AND key = ${key.slice(0, 400)} AND hits > 1`.execute(
      db(),
    );
}

/** Windows long over: a row per key would otherwise stay forever. Returns how many rows went. */
export async function pruneUsageLimits(database: Db): Promise<number> {
  const windows = await database
    .deleteFrom('usage_limits')
    .where('window_start', '<', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirst();
  const failures = await database
    .deleteFrom('sign_in_failures')
    .where('created_at', '<', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirst();
  return Number(windows.numDeletedRows + failures.numDeletedRows);
}
