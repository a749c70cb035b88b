import type { APIRoute } from 'astro';
import { currentUser } from '../../server/guards.ts';
import { ownedCourses } from '../../../functions/purchases/library.ts';
import { wishlistIds } from '../../../functions/wishlist/wishlist.ts';

export const prerender = false;

/** Who is signed in, what they own and what they saved, for the header and "You own this" on pre-rendered and cached pages. */
export const GET: APIRoute = async (context) => {
  const user = await currentUser(context);
  const body = user
    ? {
        user: { id: user.id, email: user.email, fullName: user.fullName, role: user.role, language: user.language },
        owned: await ownedCourses(user.id),
        wishlist: await wishlistIds(user.id),
      }
    : { user: null, owned: [], wishlist: [] };
  return Response.json(body, { headers: { 'Cache-Control': 'private, no-store' } });
};
