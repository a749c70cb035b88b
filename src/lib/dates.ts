import { LOCALE_OF, type Language } from '../i18n/languages.ts';

/** Dates in the page's locale: `22 Kasım 2026`, `November 22, 2026`. */
export function formatDate(iso: string | Date, lang: Language): string {
  return new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'long' }).format(new Date(iso));
}

export function formatDateTime(iso: string | Date, lang: Language): string {
  return new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
