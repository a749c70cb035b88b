import { formatDate } from './dates.ts';
import type { Language } from '../i18n/languages.ts';

/** A gift's delivery day (`YYYY-MM-DD`) in words, the same day whatever the reader's time zone (its noon in UTC). */
export const formatGiftDay = (day: string, lang: Language) => formatDate(`${day}T12:00:00Z`, lang);
