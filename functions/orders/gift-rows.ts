import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A gift's delivery day as the calendar date it is (`YYYY-MM-DD`), never moved by a time zone. */
export const giftDeliveryDay = sql<string>`to_char(gifts.deliver_on, 'YYYY-MM-DD')`;

/**
 * A gift's order its buyer may see (decision 52): it is in nobody's library, so the gift row says
 * whose it is, bought signed in, or signed out at an address the account has since proved (the rule
 * guest purchases follow, library.ts).
 */
export function giftBoughtBy(userId: string) {
  return (eb: ExpressionBuilder<Database, 'purchases'>) =>
    eb.exists(
      eb
        .selectFrom('gifts')
        .innerJoin('users', 'users.id', 'gifts.buyer_id')
        .select('gifts.id')
        .whereRef('gifts.order_id', '=', 'purchases.id')
        .where('gifts.buyer_id', '=', userId)
        .where((inner) => inner.or([inner('gifts.buyer_guest', '=', false), inner('users.email_verified', '=', true)])),
    );
}
