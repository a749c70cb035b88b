import { replyToReview, setReviewHidden } from '../../../../../functions/reviews/admin.ts';
import { readJson, resultResponse } from '../../../../lib/http.ts';
import { ReviewChangeSchema } from '../../../../lib/reviews.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';

export const prerender = false;

/** Hides or shows a review (`{hidden}`), or sets the shop's reply under it (`{reply}`, empty removes it). */
export const PATCH = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, ReviewChangeSchema);
  if ('response' in body) return body.response;
  const id = params.id ?? '';
  const change = body.data;
  return change.hidden !== undefined
    ? resultResponse(await setReviewHidden(id, change.hidden), (value) => value)
    : resultResponse(await replyToReview(id, change.reply ?? ''), (value) => value);
});
