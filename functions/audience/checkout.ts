import type { Db } from '../db/database.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { CONSENT_WORDINGS, wordingOf } from './consent.ts';
import { requestSubscription } from './subscribe.ts';
import { sql } from 'kysely';

export interface CheckoutSubscription {
  email: string;
  language: Language;
  /** The checkout page's path, e.g. `/tr/checkout/<course id>`. */
  page: string;
  clientIp: string;
}

/**
 * The checkout's "send me news" box (unticked by default), ticked: the buyer gets the same
 * double opt-in as the sign-up forms, recorded with the box's own wording (`audience.consentCheckout`,
 * which the box must show). Pass the checkout's transaction so the order and the confirmation mail
 * commit together; a purchase never depends on it (the buyer's mails are transactional and sent
 * whatever they choose here).
 */
export function subscribeAtCheckout(database: Db, buyer: CheckoutSubscription): Promise<void> {
  return requestSubscription(database, buyer.email, wordingOf(CONSENT_WORDINGS.checkout, buyer.language), {
    language: buyer.language,
    source: 'checkout',
    page: buyer.page,
    clientIp: buyer.clientIp,
  });
}

/**
 * The subscriber at an order's mailbox whose consent is confirmed and current (active), if any, as a
 * column of a query on `purchases`: what a marketing line in a transactional mail (the next course in
 * the materials mail) must have first. Read with the order, not after it (one statement fewer in a payment).
 */
export const activeSubscriberOfOrder = sql<
  string | null
>`(SELECT subscribers.id FROM subscribers WHERE subscribers.mailbox_key = purchases.buyer_key AND subscribers.status = 'active')`;
