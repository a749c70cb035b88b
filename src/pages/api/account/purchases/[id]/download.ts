import type { APIRoute } from 'astro';
import { purchaseOwnedBy, signedFileUrl } from '../../../../../../functions/downloads/downloads.ts';
import { errorResponse, NO_STORE, noStoreJson } from '../../../../../lib/http.ts';
import { currentUser } from '../../../../../server/guards.ts';
import { downloadProblemPage, wantsJson } from '../../../../../server/download-problem.ts';

export const prerender = false;

/**
 * The dashboard's Download button: the signed-in owner only; anyone else's purchase is simply not
 * found. The button's script asks for JSON (the file's short-lived address); a plain navigation is
 * redirected to the file, or to a page that says what went wrong.
 */
export const GET: APIRoute = async (context) => {
  const json = wantsJson(context.request);
  const user = await currentUser(context);
  if (!user) return json ? errorResponse(401, 'unauthorized', 'errors.unauthorized') : downloadProblemPage(context, 'signed_out');
  const purchaseId = await purchaseOwnedBy(context.params.id ?? '', user.id);
  if (!purchaseId)
    return json ? errorResponse(404, 'not_found', 'errors.notFound') : downloadProblemPage(context, 'unknown', user.language);
  const url = signedFileUrl(purchaseId);
  if (json) return noStoreJson({ url });
  return new Response(null, { status: 302, headers: { Location: url, ...NO_STORE } });
};
