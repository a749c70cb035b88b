import i18next, { type TFunction } from 'i18next';
import en from './locales/en.json';
import tr from './locales/tr.json';
import type { Language } from './languages.ts';

export type MessageKey = keyof typeof en;
export const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, tr };

const instances = new Map<Language, TFunction>();

/**
 * A translator for one language. Each language has its own i18next instance
 * (never the global one), so concurrent requests in different languages never mix.
 */
export function getT(lang: Language): TFunction {
  let t = instances.get(lang);
  if (!t) {
    const instance = i18next.createInstance();
    void instance.init({
      lng: lang,
      fallbackLng: 'en',
      resources: { en: { translation: MESSAGES.en }, tr: { translation: MESSAGES.tr } },
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    t = instance.t;
    instances.set(lang, t);
  }
  return t;
}
