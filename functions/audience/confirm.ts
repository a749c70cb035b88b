import { sql } from 'kysely';
import { db, type Db } from '../db/database.ts';
import { shopIdentity } from '../shop/identity.ts';
import { siteUrl } from '../env.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { subscriptionWelcome } from '../mail/templates/index.ts';
import { asLanguage, type Language } from '../../src/i18n/languages.ts';
import { invalid, ok, type Result } from '../../src/lib/result.ts';
import { subscriberLinks } from './links.ts';
import { hashToken } from './subscribe.ts';
import { audienceSettings, fillPlaceholders, textsOf } from './settings.ts';

export type LinkState = 'valid' | 'expired' | 'used' | 'invalid';

const TOKEN = /^[\w-]{20,100}$/;

/** The automatic welcome (Admin → Mail), unless the seller turned it off: in the confirmation's language, with their words. */
async function queueWelcome(trx: Db, subscriber: { id: string; email: string }, language: Language): Promise<void> {
  const settings = await audienceSettings(trx);
  if (!settings.automatic.welcome.enabled) return;
  const shop = await shopIdentity(trx);
  const texts = textsOf(settings, 'welcome', language);
  const welcome = await renderMail(
    subscriptionWelcome,
    {
      subject: fillPlaceholders(texts.subject, { shop: shop.name }),
      markdown: fillPlaceholders(texts.body, { shop: shop.name }),
      buttonUrl: `${siteUrl()}/${language}/courses`,
    },
    { to: subscriber.email, language, unsubscribe: subscriberLinks(subscriber.id, language) },
    trx,
  );
  await queueMail(trx, { ...welcome, subscriberId: subscriber.id });
}

/** What a confirmation link would do, without using it (the confirm page shows a button; opening it changes nothing). */
export async function confirmationLinkState(token: string): Promise<LinkState> {
  if (!TOKEN.test(token)) return 'invalid';
  const row = await db()
    .selectFrom('subscriber_confirmations')
    .select(['used_at', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return 'invalid';
  if (row.used_at) return 'used';
  return row.expires_at <= new Date() ? 'expired' : 'valid';
}

const REFUSALS = {
  expired: invalid('link_expired', 'audience.confirm.expired'),
  used: invalid('link_used', 'audience.confirm.used'),
  invalid: invalid('link_invalid', 'audience.confirm.invalid'),
} as const;

/**
 * Uses a confirmation link, once: the consent it was sent for counts from now, the subscriber is
 * active (in that consent's language too), and a first confirmation is welcomed by a marketing mail
 * carrying one-click unsubscribe. A used, expired or unknown link changes nothing.
 */
export async function confirmSubscription(token: string): Promise<Result<{ subscriberId: string; language: Language }>> {
  if (!TOKEN.test(token)) return REFUSALS.invalid;
  const confirmed = await db()
    .transaction()
    .execute(async (trx) => {
      const link = await trx
        .updateTable('subscriber_confirmations')
        .set({ used_at: new Date() })
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date())
        .returning('consent_id')
        .executeTakeFirst();
      if (!link) return undefined;
      const consent = await trx
        .updateTable('subscriber_consents')
        .set({ confirmed_at: new Date() })
        .where('id', '=', link.consent_id)
        .returning(['subscriber_id', 'language'])
        .executeTakeFirstOrThrow();
      const before = await trx
        .selectFrom('subscribers')
        .select('status')
        .where('id', '=', consent.subscriber_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const subscriber = await trx
        .updateTable('subscribers')
        .set({
          status: 'active',
          confirmed_at: new Date(),
          unsubscribed_at: null,
          updated_at: new Date(),
          languages: sql<
            string[]
          >`(SELECT array_agg(DISTINCT l) FROM unnest(languages || ARRAY[${consent.language}]::text[]) AS l)`,
        })
        .where('id', '=', consent.subscriber_id)
        .returning(['id', 'email'])
        .executeTakeFirstOrThrow();
      const language = asLanguage(consent.language);
      if (before.status !== 'active') await queueWelcome(trx, subscriber, language);
      return { subscriberId: subscriber.id, language };
    });
  if (confirmed) return ok(confirmed);
  const state = await confirmationLinkState(token);
  return REFUSALS[state === 'valid' ? 'invalid' : state];
}
