import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { confirmedSubscriber } from '../audience/checkout.ts';
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
  order: { id: string; email: string },
  language: Language,
): Promise<MailOffer | undefined> {
  const subscriber = await confirmedSubscriber(trx, order.email);
  const offer = subscriber ? await offerAfterOrder(order.id, trx) : undefined;
  if (!subscriber || !offer) return undefined;
  return {
    ...offerWords(offer, language),
    url: `${siteUrl()}${offerPath(language, offer)}`,
    preferencesUrl: subscriberLinks(subscriber.id, language).pageUrl,
  };
}
