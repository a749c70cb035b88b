import type { Db } from '../db/database.ts';
import { sendSecurityNotice } from '../account/security-notices.ts';

export type TwoFactorResetOutcome = 'reset' | 'not_found' | 'not_enabled';

/**
 * The operator's way back for an owner who lost both the authenticator and the backup codes
 * (`npm run two-factor:reset`): two-factor is turned off, every session of the account ends (whoever
 * holds one signs in again), and the owner is told by mail, in their language, what was done and what
 * to do if they did not ask for it. Passkeys and the password stay: the owner removes what they lost.
 */
export async function resetTwoFactor(database: Db, email: string): Promise<TwoFactorResetOutcome> {
  const outcome = await database.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'two_factor_enabled'])
      .where('email', '=', email.trim().toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!user) return { kind: 'not_found' as const };
    const secret = await trx.deleteFrom('two_factors').where('user_id', '=', user.id).executeTakeFirst();
    if (!user.two_factor_enabled && Number(secret.numDeletedRows) === 0) return { kind: 'not_enabled' as const };
    await trx.updateTable('users').set({ two_factor_enabled: false, updated_at: new Date() }).where('id', '=', user.id).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    return { kind: 'reset' as const, userId: user.id };
  });
  if (outcome.kind !== 'reset') return outcome.kind;
  await sendSecurityNotice(database, outcome.userId, 'two-factor-reset', { userAgent: null, actor: 'mail.securityByOperator' });
  return 'reset';
}
