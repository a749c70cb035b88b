import type { Db } from '../db/database.ts';
import { adoptDetachedPurchases } from './library.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * The account for an address a purchase is for (a guest's checkout, a gift's recipient): the
 * existing one, or a new one created silently. A silent account has no password at all (the spec's
 * "random password", minus hashing a secret nobody will ever type): its owner gets the course by
 * e-mail, and "forgot password" gives the account one.
 */
export async function findOrCreateAccount(
  database: Db,
  email: string,
  fullName: string,
  language: Language,
): Promise<{ id: string; email: string }> {
  const normalized = email.trim().toLowerCase();
  const created = await database
    .insertInto('users')
    .values({ email: normalized, full_name: fullName, email_verified: false, language })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'email'])
    .executeTakeFirst();
  if (created) await adoptDetachedPurchases(database, [created]);
  return (
    created ??
    (await database.selectFrom('users').select(['id', 'email']).where('email', '=', normalized).executeTakeFirstOrThrow())
  );
}
