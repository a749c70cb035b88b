import { db } from '../db/database.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { TOPICS, type SubscriberStatus, type Topic } from '../../src/lib/audience.schema.ts';
import { invalid, notFound, ok, type Result } from '../../src/lib/result.ts';
import { consentRow, type ConsentContext, type Wording } from './consent.ts';

export interface SubscriberPreferences {
  email: string;
  status: SubscriberStatus;
  languages: Language[];
  topics: Topic[];
}

const known = <T extends string>(values: readonly T[], stored: string[]): T[] => values.filter((value) => stored.includes(value));

/** What the preferences page shows; undefined when there is no such subscriber. */
export async function subscriberPreferences(subscriberId: string): Promise<SubscriberPreferences | undefined> {
  const row = await db()
    .selectFrom('subscribers')
    .select(['email', 'status', 'languages', 'topics'])
    .where('id', '=', subscriberId)
    .executeTakeFirst();
  return (
    row && { email: row.email, status: row.status, languages: known(LANGUAGES, row.languages), topics: known(TOPICS, row.topics) }
  );
}

/** The languages and topics a subscriber wants mail about: at least one of each (none at all is leaving). */
export async function savePreferences(
  subscriberId: string,
  choice: { languages: Language[]; topics: Topic[] },
): Promise<Result<SubscriberPreferences>> {
  const fields = {
    ...(choice.languages.length === 0 ? { languages: 'audience.prefs.languagesRequired' as const } : {}),
    ...(choice.topics.length === 0 ? { topics: 'audience.prefs.topicsRequired' as const } : {}),
  };
  if (Object.keys(fields).length > 0) return invalid('nothing_chosen', 'audience.prefs.nothingChosen', fields);
  const saved = await db()
    .updateTable('subscribers')
    .set({ languages: choice.languages, topics: choice.topics, updated_at: new Date() })
    .where('id', '=', subscriberId)
    .returning(['email', 'status'])
    .executeTakeFirst();
  return saved ? ok({ ...saved, ...choice }) : notFound;
}

/**
 * Unsubscribes from everything, at once (no confirmation: leaving must be as easy as one click), and
 * records the withdrawal. Links still waiting to confirm an earlier sign-up stop working, so an old
 * mail cannot bring the address back. Leaving twice records nothing more; false for no such subscriber.
 */
export async function unsubscribe(subscriberId: string, wording: Wording, context: ConsentContext): Promise<boolean> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const subscriber = await trx
        .selectFrom('subscribers')
        .select('status')
        .where('id', '=', subscriberId)
        .forUpdate()
        .executeTakeFirst();
      if (!subscriber) return false;
      if (subscriber.status === 'unsubscribed') return true;
      const now = new Date();
      await trx
        .updateTable('subscribers')
        .set({ status: 'unsubscribed', unsubscribed_at: now, updated_at: now })
        .where('id', '=', subscriberId)
        .execute();
      await trx
        .insertInto('subscriber_consents')
        .values({ ...consentRow(subscriberId, 'withdraw', wording, context), confirmed_at: now })
        .execute();
      await trx
        .updateTable('subscriber_confirmations')
        .set({ expires_at: now })
        .where('used_at', 'is', null)
        .where('consent_id', 'in', (eb) =>
          eb.selectFrom('subscriber_consents').select('id').where('subscriber_id', '=', subscriberId),
        )
        .execute();
      return true;
    });
}
