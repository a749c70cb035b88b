import type { APIRoute } from 'astro';
import { addToWishlist, removeFromWishlist } from '../../../../../functions/wishlist/wishlist.ts';
import { errorResponse } from '../../../../lib/http.ts';
import { isCourseId } from '../../../../lib/wishlist.ts';
import { requireUser } from '../../../../server/guards.ts';

export const prerender = false;

const noStore = { 'Cache-Control': 'private, no-store' };

/** Saves one course; answers with the whole list. */
export const PUT: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const courseId = context.params.courseId;
  if (!isCourseId(courseId)) return errorResponse(404, 'not_found', 'errors.notFound');
  return Response.json({ courseIds: await addToWishlist(user.id, [courseId]) }, { headers: noStore });
};

export const DELETE: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const courseId = context.params.courseId;
  if (!isCourseId(courseId)) return errorResponse(404, 'not_found', 'errors.notFound');
  return Response.json({ courseIds: await removeFromWishlist(user.id, courseId) }, { headers: noStore });
};
