import { sendTestBroadcast } from '../../../../../../functions/audience/broadcasts.ts';
import { readJson, resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { z } from '../../../../../lib/zod.ts';

export const prerender = false;

/** One copy to the signed-in admin's own address, through the outbox like every mail. */
export const POST = adminEndpoint(async ({ params, request }, admin) => {
  const body = await readJson(request, z.object({}));
  if ('response' in body) return body.response;
  return resultResponse(await sendTestBroadcast(params.id ?? '', admin.email), (sent) => sent);
});
