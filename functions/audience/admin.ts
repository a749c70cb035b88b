import { sql, type SelectQueryBuilder } from 'kysely';
import { db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import {
  SUBSCRIBER_STATUSES,
  TOPICS,
  type AdminSubscriber,
  type AdminSubscriberPage,
  type SubscriberListQuery,
  type SubscriberStatus,
} from '../../src/lib/audience.schema.ts';

export const ADMIN_SUBSCRIBERS_PER_PAGE = 50;

type Filter = Pick<SubscriberListQuery, 'q' | 'status'>;

function filtered(filter: Filter): SelectQueryBuilder<Database, 'subscribers', object> {
  let query = db().selectFrom('subscribers');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.q) {
    const pattern = `%${filter.q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where(sql<boolean>`lower(email) LIKE ${pattern}`);
  }
  return query;
}

/** The form each subscriber's newest consent came from. */
const newestSource = sql<AdminSubscriber['source']>`(
  SELECT source FROM subscriber_consents c WHERE c.subscriber_id = subscribers.id ORDER BY c.created_at DESC LIMIT 1)`;

export type SubscriberFields = Omit<AdminSubscriber, 'source'>;

export function toSubscriber(row: {
  id: string;
  email: string;
  status: SubscriberStatus;
  languages: string[];
  topics: string[];
  created_at: Date;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
}): SubscriberFields {
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    languages: LANGUAGES.filter((code) => row.languages.includes(code)),
    topics: TOPICS.filter((topic) => row.topics.includes(topic)),
    createdAt: row.created_at.toISOString(),
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
    unsubscribedAt: row.unsubscribed_at?.toISOString() ?? null,
  };
}

const toAdminSubscriber = (row: Parameters<typeof toSubscriber>[0] & { source: AdminSubscriber['source'] }): AdminSubscriber => ({
  ...toSubscriber(row),
  source: row.source,
});

export const COLUMNS = ['id', 'email', 'status', 'languages', 'topics', 'created_at', 'confirmed_at', 'unsubscribed_at'] as const;

/** Newest first, 50 a page, with how many there are in each status (whatever the filter). */
export async function listSubscribers(query: SubscriberListQuery): Promise<AdminSubscriberPage> {
  const [rows, count, byStatus] = await Promise.all([
    filtered(query)
      .select([...COLUMNS, newestSource.as('source')])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(ADMIN_SUBSCRIBERS_PER_PAGE)
      .offset((query.page - 1) * ADMIN_SUBSCRIBERS_PER_PAGE)
      .execute(),
    filtered(query)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom('subscribers')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute(),
  ]);
  const total = Number(count.total);
  const counts = Object.fromEntries(SUBSCRIBER_STATUSES.map((status) => [status, 0])) as Record<SubscriberStatus, number>;
  for (const row of byStatus) counts[row.status] = Number(row.n);
  return {
    subscribers: rows.map(toAdminSubscriber),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / ADMIN_SUBSCRIBERS_PER_PAGE)),
    counts,
  };
}

/** Every subscriber the filter matches, for the list's CSV. */
export async function subscribersForExport(filter: Filter): Promise<AdminSubscriber[]> {
  const rows = await filtered(filter)
    .select([...COLUMNS, newestSource.as('source')])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toAdminSubscriber);
}
