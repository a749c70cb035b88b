/** Client-safe language rules shared by pages, middleware and islands. */
export const LANGUAGES = ['en', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_COOKIE = 'lang';
export const LANGUAGE_COOKIE_MAX_AGE_S = 60 * 60 * 24 * 365;

export const LOCALE_OF: Record<Language, string> = { en: 'en-US', tr: 'tr-TR' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** A stored or requested language, or the default one when it is not (or no longer) an interface language. */
export function asLanguage(value: unknown): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/** `{ 'name-en': value('en'), 'name-tr': value('tr') }`: a form field per language, for a schema and a form's values. */
export function perLanguage<Field extends string, T>(field: (lang: Language) => Field, value: (lang: Language) => T) {
  return Object.fromEntries(LANGUAGES.map((lang) => [field(lang), value(lang)])) as Record<Field, T>;
}

/** `(en|tr)`: the language segment of a path, for route patterns. */
export const LANGUAGE_PATTERN = `(${LANGUAGES.join('|')})`;

/** The language segment a path starts with, if it is one we serve. */
export function languageOfPath(pathname: string): Language | undefined {
  const first = pathname.split('/')[1];
  return isLanguage(first) ? first : undefined;
}

/** `/courses?x=1` under a language: `/tr/courses?x=1`. Paths are given without the language segment. */
export function localizedPath(lang: Language, path = '/'): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return clean === '/' ? `/${lang}/` : `/${lang}${clean}`;
}

/** The same page in another language: replaces (or adds) the first segment, keeps the rest and the query. */
export function switchLanguage(pathWithQuery: string, lang: Language): string {
  const [pathname = '/', ...rest] = pathWithQuery.split(/(?=[?#])/);
  const current = languageOfPath(pathname);
  const withoutLanguage = current ? pathname.slice(current.length + 1) || '/' : pathname;
  return localizedPath(lang, withoutLanguage) + rest.join('');
}

/** Cookie first (the visitor's last choice), then Accept-Language by weight, then English. */
export function negotiateLanguage(cookieValue: string | undefined, acceptLanguage: string | null): Language {
  if (isLanguage(cookieValue)) return cookieValue;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { base: tag.toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLanguage) ?? DEFAULT_LANGUAGE;
}
