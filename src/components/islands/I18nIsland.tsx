import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { getI18n } from '../../i18n/i18n.ts';
import type { Language } from '../../i18n/languages.ts';

/** Gives a React tree (an island, or a static render) the translator for its page's language. */
export function I18nIsland({ lang, children }: { lang: Language; children: ReactNode }) {
  return <I18nextProvider i18n={getI18n(lang)}>{children}</I18nextProvider>;
}
