import { createBroadcast, listBroadcasts } from '../../../../../functions/audience/broadcasts.ts';
import { BroadcastSchema } from '../../../../lib/admin/mail.schema.ts';
import { noStoreJson, readJson, resultResponse } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';

export const prerender = false;

/** The newest broadcasts, each with its counts (waiting, queued, sent, failed, withdrawn, unsubscribed after). */
export const GET = adminEndpoint(async () => noStoreJson({ broadcasts: await listBroadcasts() }));

/** A new draft. */
export const POST = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, BroadcastSchema);
  if ('response' in body) return body.response;
  return resultResponse(await createBroadcast(body.data), (broadcast) => ({ broadcast }), 201);
});
