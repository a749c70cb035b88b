import i18next, { type i18n as I18n, type TFunction } from 'i18next';
import en from './locales/en.json' with { type: 'json' };
import tr from './locales/tr.json' with { type: 'json' };
import type { Language } from './languages.ts';
import { inScopes, type IslandMessages } from './translate.ts';

export type MessageKey = keyof typeof en;
export const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, tr };

const instances = new Map<Language, I18n>();

/**
 * The i18next instance for one language. Each language has its own instance (never the
 * global one), so concurrent requests in different languages never mix.
 */
export function getI18n(lang: Language): I18n {
  let instance = instances.get(lang);
  if (!instance) {
    instance = i18next.createInstance();
    void instance.init({
      lng: lang,
      fallbackLng: 'en',
      resources: { en: { translation: MESSAGES.en }, tr: { translation: MESSAGES.tr } },
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    instances.set(lang, instance);
  }
  return instance;
}

export function getT(lang: Language): TFunction {
  return getI18n(lang).t;
}

/** The strings an island declared (`messageScopes`) in one language: what its page sends with its props. */
export function islandMessages(lang: Language, scopes: readonly string[]): IslandMessages {
  const strings = Object.fromEntries(Object.entries(MESSAGES[lang]).filter(([key]) => inScopes(key, scopes)));
  return { lang, strings };
}

/** The whole dictionary of one language, for React trees rendered on the server only (no JavaScript). */
export function allMessages(lang: Language): IslandMessages {
  return { lang, strings: MESSAGES[lang] };
}
