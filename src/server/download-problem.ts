import type { APIContext } from 'astro';
import type { DownloadProblem } from '../../functions/downloads/downloads.ts';
import { asLanguage, isLanguage, LANGUAGE_COOKIE, localizedPath, negotiateLanguage } from '../i18n/languages.ts';
import { NO_STORE } from '../lib/http.ts';

/**
 * A download opened in a browser (an e-mailed link, the dashboard without a session) that cannot
 * start: a translated page that says why and what to do, never a JSON error.
 */
export function downloadProblemPage(
  context: Pick<APIContext, 'request' | 'cookies'>,
  problem: DownloadProblem,
  language?: string,
) {
  const lang = isLanguage(language)
    ? asLanguage(language)
    : negotiateLanguage(context.cookies.get(LANGUAGE_COOKIE)?.value, context.request.headers.get('accept-language'));
  return new Response(null, {
    status: 303,
    headers: {
      Location: `${localizedPath(lang, '/downloads/unavailable')}?reason=${problem}`,
      ...NO_STORE,
      'Referrer-Policy': 'no-referrer',
    },
  });
}

/** A script's fetch wants JSON; a navigation (a link, a new tab) wants a page. */
export function wantsJson(request: Request): boolean {
  return (request.headers.get('accept') ?? '').includes('application/json');
}
