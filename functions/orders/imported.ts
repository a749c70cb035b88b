import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { adoptDetachedPurchases } from './library.ts';
import { newDownloadToken } from './orders.ts';

/**
 * Buyers brought over from another platform (Admin → Import): each bought course becomes a completed
 * guest purchase of this shop, marked by its provider. No money moved here, so it has no receipt,
 * costs 0 and is left out of sales and analytics (admin-sales.ts, admin-analytics.ts); like any guest
 * purchase it opens in a library once the address is proved (a sign-in link, decision 13).
 */
export const IMPORTED_PROVIDER = 'import';

export interface ImportedGrant {
  email: string;
  name: string;
  language: Language;
  courseId: string;
  currency: string;
  /** `<platform>_<the platform's order id>`: one purchase per platform order and course, whatever is imported again. */
  reference: string;
  orderedAt: Date | null;
}

/**
 * Grants a batch in the import's transaction: an account per new address (made silently, as a guest
 * checkout makes one), then the purchases. A purchase imported before, or a course the buyer owns
 * already, is left as it is. Answers the purchases made now and how many accounts were new.
 */
export async function grantImportedPurchases(
  trx: Transaction<Database>,
  grants: ImportedGrant[],
): Promise<{ granted: { email: string; courseId: string }[]; newAccounts: number }> {
  if (grants.length === 0) return { granted: [], newAccounts: 0 };
  const buyers = new Map(grants.map((grant) => [grant.email, grant]));
  const created = await trx
    .insertInto('users')
    .values(
      [...buyers.values()].map(({ email, name, language }) => ({ email, full_name: name, email_verified: false, language })),
    )
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'email'])
    .execute();
  await adoptDetachedPurchases(trx, created);
  const accounts = await trx
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', [...buyers.keys()])
    .execute();
  const accountOf = new Map(accounts.map((account) => [account.email, account.id]));
  const granted = await trx
    .insertInto('purchases')
    .values(
      grants.map((grant) => ({
        user_id: accountOf.get(grant.email)!,
        course_id: grant.courseId,
        email: grant.email,
        full_name: grant.name,
        language: grant.language,
        guest: true,
        status: 'completed' as const,
        provider: IMPORTED_PROVIDER,
        payment_id: `${IMPORTED_PROVIDER}_${grant.reference}_${grant.courseId}`,
        amount_minor: 0,
        currency: grant.currency,
        buyer_key: mailboxKey(grant.email),
        download_token: newDownloadToken(),
        completed_at: grant.orderedAt ?? new Date(),
      })),
    )
    // Imported before (payment_id) or owned already (one completed purchase per buyer and course).
    .onConflict((conflict) => conflict.doNothing())
    .returning(['email', 'course_id'])
    .execute();
  return { granted: granted.map((row) => ({ email: row.email, courseId: row.course_id })), newAccounts: created.length };
}
