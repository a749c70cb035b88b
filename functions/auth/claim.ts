import type { Db } from '../db/database.ts';
import { sessionTokenIn } from './cookies.ts';

/**
 * What the person proving the address keeps: the identity they proved it with (an OpenID sign-in),
 * the password they hold (set by the reset link they opened, or typed at sign-up when the session
 * proving the address is that sign-up's), and the session they are in.
 */
export interface KeptByProver {
  accountId?: string;
  password?: boolean;
  sessionToken?: string;
}

/** What a claim took away, for the operator's command to say. */
export interface Claimed {
  signInMethods: number;
  sessions: number;
  twoFactor: boolean;
  passkeys: number;
}

/**
 * Whoever proves an account's address owns the account (decision 31). Anyone can open an account with
 * any address (sign-up, checkout); until its address is proven, whatever that person set up is theirs,
 * not the mailbox owner's. So every path that proves the address (a sign-in link, the verification
 * mail, a password reset link, an OpenID identity the provider verified, the operator's admin:create)
 * calls this first: the account's passwords and identities, sessions, two-factor, passkeys and known
 * devices go (but what the prover holds), and the address counts as proven. An account that had
 * proved its address already is left alone: `undefined`.
 */
export async function claimAccount(database: Db, userId: string, kept: KeptByProver = {}): Promise<Claimed | undefined> {
  return database.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('email_verified').where('id', '=', userId).executeTakeFirst();
    if (!user || user.email_verified) return undefined;
    const signInMethods = await trx
      .deleteFrom('accounts')
      .where('user_id', '=', userId)
      .$if(kept.accountId !== undefined, (query) => query.where('id', '!=', kept.accountId!))
      .$if(kept.password === true, (query) => query.where('provider_id', '!=', 'credential'))
      .executeTakeFirst();
    const sessions = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .$if(kept.sessionToken !== undefined, (query) => query.where('token', '!=', kept.sessionToken!))
      .executeTakeFirst();
    const twoFactor = await trx.deleteFrom('two_factors').where('user_id', '=', userId).executeTakeFirst();
    const passkeys = await trx.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
    await trx.deleteFrom('webauthn_challenges').where('user_id', '=', userId).execute();
    await trx.deleteFrom('known_devices').where('user_id', '=', userId).execute();
    await trx
      .updateTable('users')
      .set({ email_verified: true, two_factor_enabled: false, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
    return {
      signInMethods: Number(signInMethods.numDeletedRows),
      sessions: Number(sessions.numDeletedRows),
      twoFactor: twoFactor.numDeletedRows > 0n,
      passkeys: Number(passkeys.numDeletedRows),
    };
  });
}

/**
 * The verification mail's link, opened: by the browser that signed the account up (its session is of
 * this account), the password's holder proved the address and keeps password and session; by anyone
 * else, the account is claimed from whoever signed it up.
 */
export async function claimByVerificationMail(database: Db, userId: string, request: Request | undefined): Promise<void> {
  const sessionToken = sessionTokenIn((request?.headers.get('cookie') ?? '').split(';'));
  const holder = sessionToken
    ? await database
        .selectFrom('sessions')
        .select('token')
        .where('token', '=', sessionToken)
        .where('user_id', '=', userId)
        .where('expires_at', '>', new Date())
        .executeTakeFirst()
    : undefined;
  await claimAccount(database, userId, holder ? { sessionToken: holder.token, password: true } : {});
}
