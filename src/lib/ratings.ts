import { LOCALE_OF, type Language } from '../i18n/languages.ts';

/** `4.25` → `4.3` in English, `4,3` in Turkish: an average always shows one decimal. */
export function formatRating(average: number, lang: Language): string {
  return new Intl.NumberFormat(LOCALE_OF[lang], { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(average);
}

/** Five stars, as many filled as the rounded rating: a picture for the eye, the number says it. */
export function starRow(rating: number): string {
  const filled = Math.min(5, Math.max(0, Math.round(rating)));
  return '★'.repeat(filled) + '☆'.repeat(5 - filled);
}
