import { listSubscribers } from '../../../../../functions/audience/admin.ts';
import { SubscriberListQuerySchema } from '../../../../lib/audience.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { noStoreJson } from '../../../../lib/http.ts';

export const prerender = false;

/** Subscribers, newest first, 50 a page; `?q=` searches the address, `?status=` filters. */
export const GET = adminEndpoint(async ({ url }) =>
  noStoreJson(await listSubscribers(SubscriberListQuerySchema.parse(Object.fromEntries(url.searchParams)))),
);
