import { getBroadcast, updateBroadcast } from '../../../../../../functions/audience/broadcasts.ts';
import { BroadcastSchema } from '../../../../../lib/admin/mail.schema.ts';
import { readJson, resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

export const GET = adminEndpoint(async ({ params }) =>
  resultResponse(await getBroadcast(params.id ?? ''), (broadcast) => ({ broadcast })),
);

/** Changes a draft or a scheduled broadcast (it stays scheduled); one that started is refused (409). */
export const PUT = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, BroadcastSchema);
  if ('response' in body) return body.response;
  return resultResponse(await updateBroadcast(params.id ?? '', body.data), (broadcast) => ({ broadcast }));
});
