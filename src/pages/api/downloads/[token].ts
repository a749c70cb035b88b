import type { APIRoute } from 'astro';
import { purchaseForToken, signedFileUrl } from '../../../../functions/downloads/downloads.ts';
import { downloadProblemPage } from '../../../server/download-problem.ts';
import { NO_STORE } from '../../../lib/http.ts';

export const prerender = false;

/** The permanent link from the materials e-mail: works without signing in, for as long as the purchase stands. */
export const GET: APIRoute = async (context) => {
  const found = await purchaseForToken(context.params.token ?? '');
  if ('problem' in found) return downloadProblemPage(context, found.problem, found.language);
  return new Response(null, {
    status: 302,
    headers: {
      Location: signedFileUrl(found.purchaseId),
      ...NO_STORE,
      'Referrer-Policy': 'no-referrer',
    },
  });
};
