import type { APIRoute } from 'astro';
import { devToolsEnabled } from '../../../../functions/dev-tools.ts';
import { errorResponse } from '../../../lib/http.ts';

export const prerender = false;

/** A developer tool: throws, so the API's answer to a crash (JSON, never the HTML page) can be tested. */
export const GET: APIRoute = () => {
  if (!devToolsEnabled()) return errorResponse(404, 'not_found', 'errors.notFound');
  throw new Error('Deliberate crash from /api/dev/crash');
};
