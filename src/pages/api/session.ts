import type { APIRoute } from 'astro';
import { currentUser } from '../../server/guards.ts';

export const prerender = false;

/** Who is signed in, for the header on pre-rendered pages. */
export const GET: APIRoute = async (context) => {
  const user = await currentUser(context);
  const body = user
    ? { user: { id: user.id, email: user.email, fullName: user.fullName, role: user.role, language: user.language } }
    : { user: null };
  return Response.json(body, { headers: { 'Cache-Control': 'private, no-store' } });
};
