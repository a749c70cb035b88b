import { LOCALE_OF, type Language } from '../i18n/languages.ts';

const DATE_STYLES = {
  date: { dateStyle: 'long' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  utcDateTime: { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

// Made once per language and style: making a format costs more than using it many times.
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lang: Language, style: keyof typeof DATE_STYLES): Intl.DateTimeFormat {
  const key = `${lang} ${style}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(LOCALE_OF[lang], DATE_STYLES[style])));
  return format;
}

/** Dates in the page's locale: `22 Kasım 2026`, `November 22, 2026`. */
export function formatDate(iso: string | Date, lang: Language): string {
  return dateFormat(lang, 'date').format(new Date(iso));
}

export function formatDateTime(iso: string | Date, lang: Language): string {
  return dateFormat(lang, 'dateTime').format(new Date(iso));
}

/**
 * How long to wait before trying again, from a Retry-After in seconds, as a phrase that fits
 * "try again …": `in 7 minutes`, `7 dakika sonra` (whole minutes, rounded up; seconds under one).
 */
export function formatWait(seconds: number, lang: Language): string {
  const words = new Intl.RelativeTimeFormat(LOCALE_OF[lang], { numeric: 'always' });
  return seconds < 60 ? words.format(Math.max(1, Math.ceil(seconds)), 'second') : words.format(Math.ceil(seconds / 60), 'minute');
}

/** A moment in UTC, for times the admin types as UTC (a broadcast's schedule: forms without a script cannot know the browser's zone). */
export function formatUtcDateTime(iso: string | Date, lang: Language): string {
  return dateFormat(lang, 'utcDateTime').format(new Date(iso));
}
