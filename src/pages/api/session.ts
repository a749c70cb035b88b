import type { APIRoute } from 'astro';
import { currentSession } from '../../server/guards.ts';
import { ownedCourses } from '../../../functions/orders/library.ts';
import { wishlistIds } from '../../../functions/wishlist/wishlist.ts';
import { noStoreJson } from '../../lib/http.ts';

export const prerender = false;

/**
 * Who is signed in, what they own and what they saved, for the header and "You own this" on
 * cached pages. A session waiting on its second factor is not signed in: it learns
 * only that it waits, so the header can offer to finish (or sign out).
 */
export const GET: APIRoute = async (context) => {
  const session = await currentSession(context);
  if (session.status !== 'signed-in')
    return noStoreJson({ user: null, owned: [], wishlist: [], secondFactorPending: session.status === 'second-factor-pending' });
  const { user } = session;
  // Asked on every page a signed-in reader opens: the two reads go together.
  const [owned, wishlist] = await Promise.all([ownedCourses(user.id), wishlistIds(user.id)]);
  const body = {
    user: { id: user.id, email: user.email, fullName: user.fullName, role: user.role, language: user.language },
    owned,
    wishlist,
    secondFactorPending: false,
  };
  return noStoreJson(body);
};
