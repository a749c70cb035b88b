import type { APIRoute } from 'astro';
import { devToolsEnabled } from '../../../../functions/dev-tools.ts';

export const prerender = false;

/** Outside production only: throws, so the crash screen can be seen and tested. */
export const GET: APIRoute = () => {
  if (!devToolsEnabled()) return new Response(null, { status: 404 });
  throw new Error('Deliberate crash from /dev/crash');
};
