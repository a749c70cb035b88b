import { localizedPath, type Language } from '../i18n/languages.ts';

export const COVER_FALLBACK_URL = '/images/course-fallback.svg';
/** Where the shop serves its own public files (covers) when they are kept on the local disk. */
export const PUBLIC_MEDIA_PREFIX = '/media/';

export const courseUrl = (lang: Language, id: string) => localizedPath(lang, `/course/${id}`);
export const checkoutUrl = (lang: Language, id: string) => localizedPath(lang, `/checkout/${id}`);
export const catalogueUrl = (lang: Language, query = '') => localizedPath(lang, `/courses${query}`);
