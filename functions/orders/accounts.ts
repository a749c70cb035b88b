import type { Db } from '../db/database.ts';
import { adoptDetachedPurchases } from './library.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * The account for an address a purchase is for (a guest's checkout, a gift's recipient): the
 * existing one, or a new one created silently. A silent account has no password at all (the spec's
 * "random password", minus hashing a secret nobody will ever type): its owner gets the course by
 * e-mail, and "forgot password" gives the account one. A new account that adopted no earlier
 * order says it owns nothing (its checkout need not ask).
 */
export async function findOrCreateAccount(
  database: Db,
  email: string,
  fullName: string,
  language: Language,
): Promise<{ id: string; email: string; ownsNothing?: true }> {
  const normalized = email.trim().toLowerCase();
  const created = await database
    .insertInto('users')
    .values({ email: normalized, full_name: fullName, email_verified: false, language })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'email'])
    .executeTakeFirst();
  if (created) return (await adoptDetachedPurchases(database, [created])) === 0 ? { ...created, ownsNothing: true } : created;
  return database.selectFrom('users').select(['id', 'email']).where('email', '=', normalized).executeTakeFirstOrThrow();
}
