import { defineMiddleware } from 'astro:middleware';
import { languageRedirectTarget } from './i18n/language-redirect.ts';
import { LANGUAGE_COOKIE, negotiateLanguage } from './i18n/languages.ts';
import { protectedAreaOf } from './lib/protected-paths.ts';
import { isCrossSiteWrite } from './lib/cross-site.ts';
import { errorResponse } from './lib/http.ts';
import { siteOrigin } from './server/site.ts';
import { currentSession, requireAdmin, requireUser, toSecondFactor } from './server/guards.ts';
import { downloadProblemPage } from './server/download-problem.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  // Pre-rendered pages pass through here at build time only: no request to inspect.
  if (context.isPrerendered) return next();

  if (isCrossSiteWrite(context.request, context.url, [context.url.origin, siteOrigin().origin]))
    return errorResponse(403, 'cross_site', 'errors.forbidden');

  // Protected areas are checked before anything else, on the canonical form of the path, so no
  // spelling of /en/admin (encoded, upper case, dot segments) reaches a page unguarded.
  const area = protectedAreaOf(context.url.pathname);
  if (area) {
    const lang = area.kind === 'page' ? area.lang : undefined;
    const user = area.role === 'admin' ? await requireAdmin(context, lang) : await requireUser(context, lang);
    // A browser following an account link (a download, "download my data") gets a page, not JSON:
    // signed out, one that says so; waiting on its second factor, the two-factor page, then the link.
    if (user instanceof Response && area.kind === 'api' && area.role === 'user' && isNavigation(context.request)) {
      if (user.status === 401) return downloadProblemPage(context, 'signed_out');
      if ((await currentSession(context)).status === 'second-factor-pending')
        return toSecondFactor(
          context,
          negotiateLanguage(context.cookies.get(LANGUAGE_COOKIE)?.value, context.request.headers.get('accept-language')),
        );
    }
    if (user instanceof Response) return user;
  }

  const target = languageRedirectTarget(
    context.url,
    context.cookies.get(LANGUAGE_COOKIE)?.value,
    context.request.headers.get('accept-language'),
  );
  if (target) {
    return new Response(null, {
      status: 302,
      headers: { Location: target, Vary: 'Accept-Language, Cookie', 'Cache-Control': 'private, no-store' },
    });
  }

  const response = await next();
  if (area) response.headers.set('Cache-Control', 'private, no-store');
  return response;
});

/** A person following a link (a browser asks for HTML), as opposed to a script asking for data. */
function isNavigation(request: Request): boolean {
  return request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
}
