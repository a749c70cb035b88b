import { db } from '../db/database.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { notFound, ok, type Result } from '../../src/lib/result.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { COLUMNS, toSubscriber, type SubscriberFields } from './admin.ts';

/** One grant or withdrawal, as the per-subscriber record lists it. */
export interface ConsentEvent {
  action: 'grant' | 'withdraw';
  wording: { key: string; version: string; text: string };
  source: string;
  page: string;
  language: string;
  clientIp: string;
  /** When it was asked for (a grant) or done (a withdrawal). */
  at: string;
  /** When the mailbox confirmed a grant (double opt-in); a withdrawal counts at once. Null: never confirmed. */
  confirmedAt: string | null;
}

export interface ConsentRecord {
  subscriber: SubscriberFields;
  consents: ConsentEvent[];
  exportedAt: string;
}

/**
 * Everything kept about one subscriber's consent, oldest first: what a sender must be able to show
 * (GDPR art. 7(1), KVKK art. 5, Law 6563 and its regulation's art. 7) when asked how it got the address.
 */
export async function consentRecord(subscriberId: string): Promise<Result<ConsentRecord>> {
  if (!isUuid(subscriberId)) return notFound;
  const subscriber = await db().selectFrom('subscribers').select(COLUMNS).where('id', '=', subscriberId).executeTakeFirst();
  if (!subscriber) return notFound;
  const consents = await db()
    .selectFrom('subscriber_consents')
    .selectAll()
    .where('subscriber_id', '=', subscriberId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return ok({
    subscriber: toSubscriber(subscriber),
    consents: consents.map((row) => ({
      action: row.action,
      wording: { key: row.wording_key, version: row.wording_version, text: row.wording_text },
      source: row.source,
      page: row.page,
      language: row.language,
      clientIp: row.client_ip,
      at: row.created_at.toISOString(),
      confirmedAt: row.confirmed_at?.toISOString() ?? null,
    })),
    exportedAt: new Date().toISOString(),
  });
}

/** The consent record of the subscriber at this mailbox, if there is one: part of what a person's data export holds. */
export async function subscriptionOfAddress(email: string): Promise<ConsentRecord | null> {
  const subscriber = await db()
    .selectFrom('subscribers')
    .select('id')
    .where('mailbox_key', '=', mailboxKey(email))
    .executeTakeFirst();
  const record = subscriber && (await consentRecord(subscriber.id));
  return record?.ok ? record.value : null;
}
