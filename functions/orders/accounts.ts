import type { Db } from '../db/database.ts';
import { sql } from 'kysely';
import { adoptionBy } from './library.ts';
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
  // Created and its address's detached orders adopted in one statement: a guest's checkout waits for one round trip.
  const created = await database
    .with('created', (query) =>
      query
        .insertInto('users')
        .values({ email: normalized, full_name: fullName, email_verified: false, language })
        .onConflict((conflict) => conflict.column('email').doNothing())
        .returning(['id', 'email']),
    )
    .with('adopted', () => sql`(${adoptionBy(sql`created AS account`)} RETURNING purchases.id)`)
    .selectFrom('created')
    .select(['id', 'email', sql<number>`(SELECT count(*) FROM adopted)`.as('adopted')])
    .executeTakeFirst();
  if (created) {
    const account = { id: created.id, email: created.email };
    return created.adopted === 0 ? { ...account, ownsNothing: true } : account;
  }
  return database.selectFrom('users').select(['id', 'email']).where('email', '=', normalized).executeTakeFirstOrThrow();
}
