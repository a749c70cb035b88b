import type { APIRoute } from 'astro';
import { addToWishlist, wishlistIds } from '../../../../../functions/wishlist/wishlist.ts';
import { noStoreJson, readJson } from '../../../../lib/http.ts';
import { MAX_WISHLIST_SIZE } from '../../../../lib/wishlist.ts';
import { uuidSchema } from '../../../../lib/uuid.schema.ts';
import { z } from '../../../../lib/zod.ts';
import { requireUser } from '../../../../server/guards.ts';

export const prerender = false;

const MergeSchema = z.object({
  courseIds: z.array(uuidSchema('errors.badRequest'), 'errors.badRequest').max(MAX_WISHLIST_SIZE, 'errors.badRequest'),
});

export const GET: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  return noStoreJson({ courseIds: await wishlistIds(user.id) });
};

/** Merges a browser's list (saved before signing in) into the account's. */
export const POST: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const body = await readJson(context.request, MergeSchema);
  if ('response' in body) return body.response;
  return noStoreJson({ courseIds: await addToWishlist(user.id, body.data.courseIds) });
};
