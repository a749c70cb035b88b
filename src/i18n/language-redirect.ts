import { LANGUAGES, negotiateLanguage, type Language } from './languages.ts';

// Paths that are not pages: endpoints, assets, framework internals.
const NOT_PAGES = /^\/(api|_astro|_server-islands|_actions|_image|media)(\/|$)/;
const HAS_FILE_EXTENSION = /\/[^/]+\.[a-z0-9]{1,8}$/i;
// The error pages, which a page reaches by `Astro.rewrite('/404')` (middleware runs again for it).
const ERROR_PAGES = new Set(['/404', '/500']);
export const MAX_REDIRECT_PATH_LENGTH = 2048;

/**
 * Where an unprefixed page path should go: the same path and query under the visitor's
 * language. `/EN/courses` goes to `/en/courses`. Returns undefined when no redirect applies.
 */
export function languageRedirectTarget(
  url: URL,
  cookieLanguage: string | undefined,
  acceptLanguage: string | null,
): string | undefined {
  const { pathname, search } = url;
  if (
    pathname.length > MAX_REDIRECT_PATH_LENGTH ||
    NOT_PAGES.test(pathname) ||
    HAS_FILE_EXTENSION.test(pathname) ||
    ERROR_PAGES.has(pathname)
  )
    return undefined;
  const [, first = '', ...rest] = pathname.split('/');
  if ((LANGUAGES as readonly string[]).includes(first)) return undefined;
  const caseFolded = LANGUAGES.find((lang) => lang === first.toLowerCase());
  if (caseFolded) return `/${caseFolded}/${rest.join('/')}${search}`;
  const lang: Language = negotiateLanguage(cookieLanguage, acceptLanguage);
  return `/${lang}${pathname === '/' ? '/' : pathname}${search}`;
}
