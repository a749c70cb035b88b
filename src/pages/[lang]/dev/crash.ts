import type { APIRoute } from 'astro';

export const prerender = false;

/** Outside production only: throws, so the crash screen can be seen and tested. */
export const GET: APIRoute = () => {
  if (import.meta.env.PROD && process.env.NODE_ENV === 'production') return new Response(null, { status: 404 });
  throw new Error('Deliberate crash from /dev/crash');
};
