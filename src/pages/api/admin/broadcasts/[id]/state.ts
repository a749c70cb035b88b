import { changeBroadcast } from '../../../../../../functions/audience/broadcasts.ts';
import { BroadcastActionSchema } from '../../../../../lib/admin/mail.schema.ts';
import { readJson, resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

/** Pause a broadcast that is sending, resume a paused one, cancel one not finished (409 from any other state). */
export const POST = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, BroadcastActionSchema);
  if ('response' in body) return body.response;
  return resultResponse(await changeBroadcast(params.id ?? '', body.data.action), (broadcast) => ({ broadcast }));
});
