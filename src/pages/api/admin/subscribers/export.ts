import { subscribersForExport } from '../../../../../functions/audience/admin.ts';
import { SubscriberListQuerySchema } from '../../../../lib/audience.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { csvDownload } from '../../../../server/csv-download.ts';

export const prerender = false;

const HEADER = ['email', 'status', 'languages', 'topics', 'source', 'signed_up_at', 'confirmed_at', 'unsubscribed_at'];

/** The subscribers the list's filter shows (search and status), every one of them, as a CSV download. */
export const GET = adminEndpoint(async ({ url }) => {
  const filter = SubscriberListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const rows = (await subscribersForExport(filter)).map((subscriber) => [
    subscriber.email,
    subscriber.status,
    subscriber.languages.join(' '),
    subscriber.topics.join(' '),
    subscriber.source,
    subscriber.createdAt,
    subscriber.confirmedAt,
    subscriber.unsubscribedAt,
  ]);
  return csvDownload(`subscribers-${filter.status ?? 'all'}-${new Date().toISOString().slice(0, 10)}.csv`, [HEADER, ...rows]);
});
