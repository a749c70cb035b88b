import type { APIRoute } from 'astro';
import { addToWishlist, removeFromWishlist } from '../../../../../functions/wishlist/wishlist.ts';
import { errorResponse, noStoreJson } from '../../../../lib/http.ts';
import { isCourseId } from '../../../../lib/wishlist.ts';
import { requireUser } from '../../../../server/guards.ts';

export const prerender = false;

/** Saves one course; answers with the whole list. */
export const PUT: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const courseId = context.params.courseId;
  if (!isCourseId(courseId)) return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ courseIds: await addToWishlist(user.id, [courseId]) });
};

export const DELETE: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const courseId = context.params.courseId;
  if (!isCourseId(courseId)) return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ courseIds: await removeFromWishlist(user.id, courseId) });
};
