import type { APIRoute } from 'astro';
import { purchaseForToken, signedFileUrl } from '../../../../functions/downloads/downloads.ts';
import { errorResponse } from '../../../lib/http.ts';

export const prerender = false;

/** The permanent link from the materials e-mail: works without signing in, for as long as the purchase stands. */
export const GET: APIRoute = async ({ params }) => {
  const purchaseId = await purchaseForToken(params.token ?? '');
  if (!purchaseId) return errorResponse(404, 'not_found', 'errors.notFound');
  return new Response(null, {
    status: 302,
    headers: { Location: signedFileUrl(purchaseId), 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' },
  });
};
