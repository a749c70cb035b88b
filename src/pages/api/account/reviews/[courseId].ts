import type { APIRoute } from 'astro';
import { consumeAll, LIMITS } from '../../../../../functions/limits/limits.ts';
import { deleteReview, ownReview, saveReview } from '../../../../../functions/reviews/reviews.ts';
import { errorResponse, noStoreJson, readJson, resultResponse, tooManyRequests } from '../../../../lib/http.ts';
import { ReviewSchema } from '../../../../lib/reviews.schema.ts';
import { requireUser } from '../../../../server/guards.ts';
import { isUuid } from '../../../../lib/uuid.ts';

export const prerender = false;

/** The signed-in buyer's own review of a course (hidden by an admin or not), to edit it. */
export const GET: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const courseId = context.params.courseId ?? '';
  const review = isUuid(courseId) ? await ownReview(user.id, courseId) : undefined;
  if (!review) return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ review });
};

/** Writes or rewrites the review: only a buyer whose purchase of the course still stands. */
export const PUT: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const courseId = context.params.courseId ?? '';
  if (!isUuid(courseId)) return errorResponse(404, 'not_found', 'errors.notFound');
  const body = await readJson(context.request, ReviewSchema);
  if ('response' in body) return body.response;
  const verdict = await consumeAll([[LIMITS.reviewWritesPerAccount, user.id]]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  return resultResponse(await saveReview(user.id, courseId, body.data), (review) => ({ review }));
};

export const DELETE: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const courseId = context.params.courseId ?? '';
  if (!isUuid(courseId)) return errorResponse(404, 'not_found', 'errors.notFound');
  return resultResponse(await deleteReview(user.id, courseId), (value) => value);
};
