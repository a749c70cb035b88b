import type { APIRoute } from 'astro';
import { currentUser } from '../../server/guards.ts';
import { ownedCourses } from '../../../functions/purchases/library.ts';
import { wishlistIds } from '../../../functions/wishlist/wishlist.ts';

export const prerender = false;

/** Who is signed in, what they own and what they saved, for the header and "You own this" on pre-rendered and cached pages. */
export const GET: APIRoute = async (context) => {
  const user = await currentUser(context);
  if (!user) return Response.json({ user: null, owned: [], wishlist: [] }, { headers: { 'Cache-Control': 'private, no-store' } });
  // Asked on every page a signed-in reader opens: the two reads go together.
  const [owned, wishlist] = await Promise.all([ownedCourses(user.id), wishlistIds(user.id)]);
  const body = {
    user: { id: user.id, email: user.email, fullName: user.fullName, role: user.role, language: user.language },
    owned,
    wishlist,
  };
  return Response.json(body, { headers: { 'Cache-Control': 'private, no-store' } });
};
