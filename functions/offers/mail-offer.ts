import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { subscriberLinks } from '../audience/links.ts';
import { siteUrl } from '../env.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { offerAfterOrder, offerPath } from './next-course.ts';
import { offerWords, type MailOffer } from './offer-words.ts';

/**
 * The next course for the materials mail of an order, only for a buyer whose mailbox confirmed its
 * consent to marketing mail (an active subscriber): the mail is transactional, the offer is not.
 * Everyone else's materials mail is unchanged.
 */
export async function offerForMaterialsMail(
  trx: Transaction<Database>,
  /** The order, with its active subscriber as audience/checkout.ts activeSubscriberOfOrder reads it. */
  order: { id: string; subscriber_id: string | null },
  language: Language,
): Promise<MailOffer | undefined> {
  const subscriberId = order.subscriber_id;
  const offer = subscriberId ? await offerAfterOrder(order.id, trx) : undefined;
  if (!subscriberId || !offer) return undefined;
  return {
    ...offerWords(offer, language),
    url: `${siteUrl()}${offerPath(language, offer)}`,
    preferencesUrl: subscriberLinks(subscriberId, language).pageUrl,
  };
}
