import { localizedPath, type Language } from '../i18n/languages.ts';
import type { Currency } from './course-filters.ts';

export const COVER_FALLBACK_URL = '/images/course-fallback.svg';
/** Where the shop serves its own public files (covers) when they are kept on the local disk. */
export const PUBLIC_MEDIA_PREFIX = '/media/';

export const courseUrl = (lang: Language, id: string) => localizedPath(lang, `/course/${id}`);
/** A bundle's checkout names the currency of the price the shopper saw (decision 44): it is the one charged. */
export const checkoutUrl = (lang: Language, id: string, currency?: Currency) =>
  localizedPath(lang, `/checkout/${id}${currency ? `?currency=${currency}` : ''}`);
export const catalogueUrl = (lang: Language, query = '') => localizedPath(lang, `/courses${query}`);
