import type { APIRoute } from 'astro';
import { purchaseOwnedBy, signedFileUrl } from '../../../../../../functions/downloads/downloads.ts';
import { errorResponse } from '../../../../../lib/http.ts';
import { requireUser } from '../../../../../server/guards.ts';

export const prerender = false;

/** The dashboard's Download button: the signed-in owner only; anyone else's purchase is simply not found. */
export const GET: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const purchaseId = await purchaseOwnedBy(context.params.id ?? '', user.id);
  if (!purchaseId) return errorResponse(404, 'not_found', 'errors.notFound');
  return new Response(null, {
    status: 302,
    headers: { Location: signedFileUrl(purchaseId), 'Cache-Control': 'private, no-store' },
  });
};
