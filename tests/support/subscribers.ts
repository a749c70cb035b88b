import { randomUUID } from 'node:crypto';
import { db } from '../../functions/db/database.ts';
import { unsubscribe } from '../../functions/audience/preferences.ts';
import { ONE_CLICK_WORDING } from '../../functions/audience/consent.ts';
import { mailboxKey } from '../../functions/mail/mailbox-key.ts';
import type { BroadcastInput } from '../../src/lib/admin/mail.schema.ts';

/** Confirmed subscribers, straight into the table (their double opt-in is tests/integration/mail/deliverability.test.ts). */
export async function makeSubscribers(
  count: number,
  prefix: string,
  languages: string[],
  topics: string[] = ['courses'],
): Promise<{ id: string; email: string }[]> {
  const rows = Array.from({ length: count }, (_, index) => {
    const email = `${prefix}-${index}-${randomUUID().slice(0, 6)}@example.com`;
    return {
      email,
      mailbox_key: mailboxKey(email),
      status: 'active' as const,
      confirmed_at: new Date(),
      languages,
      topics,
    };
  });
  const made: { id: string; email: string }[] = [];
  for (let from = 0; from < rows.length; from += 1000)
    made.push(
      ...(await db()
        .insertInto('subscribers')
        .values(rows.slice(from, from + 1000))
        .returning(['id', 'email'])
        .execute()),
    );
  return made;
}

/** A subscriber leaves as their mail program's one-click unsubscribe does it. */
export function unsubscribeByOneClick(subscriberId: string): Promise<boolean> {
  return unsubscribe(subscriberId, ONE_CLICK_WORDING, {
    language: 'en',
    source: 'one-click',
    page: '/api/audience/unsubscribe',
    clientIp: '127.0.0.1',
  });
}

export const broadcastDraft = (overrides: Partial<BroadcastInput> = {}): BroadcastInput => ({
  subject: 'Our new course',
  body: '## Hello\n\nThe **new course** is out. [Have a look](https://shop.test/en/courses)',
  language: 'en',
  segment: 'all',
  courseIds: [],
  audienceLanguage: 'any',
  topic: 'courses',
  ...overrides,
});
