import { sendBroadcast } from '../../../../../../functions/audience/broadcasts.ts';
import { SendSchema } from '../../../../../lib/admin/mail.schema.ts';
import { readJson, resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

/** `{}`: send now (the sending job starts it within a second); `{ at }`: at that moment, which must be ahead. */
export const POST = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, SendSchema);
  if ('response' in body) return body.response;
  return resultResponse(await sendBroadcast(params.id ?? '', body.data.at), (broadcast) => ({ broadcast }));
});
