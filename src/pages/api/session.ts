import type { APIRoute } from 'astro';
import { currentUser } from '../../server/guards.ts';
import { ownedCourses } from '../../../functions/purchases/library.ts';

export const prerender = false;

/** Who is signed in and what they own, for the header and "You own this" on pre-rendered and cached pages. */
export const GET: APIRoute = async (context) => {
  const user = await currentUser(context);
  const body = user
    ? {
        user: { id: user.id, email: user.email, fullName: user.fullName, role: user.role, language: user.language },
        owned: await ownedCourses(user.id),
      }
    : { user: null, owned: [] };
  return Response.json(body, { headers: { 'Cache-Control': 'private, no-store' } });
};
