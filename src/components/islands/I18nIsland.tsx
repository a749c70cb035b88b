import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { translator, type IslandMessages, type Translate } from '../../i18n/translate.ts';

const TranslateContext = createContext<Translate | null>(null);

/**
 * Gives a React tree (an island, or a static render) the translator for its page's language, over the
 * strings the page sent it (`islandMessages(lang, MESSAGES)` in the page, `MESSAGES` declared by the
 * island with `messageScopes`).
 */
export function I18nIsland({ messages, children }: { messages: IslandMessages; children: ReactNode }) {
  const t = useMemo(() => translator(messages), [messages]);
  return <TranslateContext.Provider value={t}>{children}</TranslateContext.Provider>;
}

/** The island's translator, as `const { t } = useTranslation()` (react-i18next's shape, without it). */
export function useTranslation(): { t: Translate } {
  const t = useContext(TranslateContext);
  if (!t) throw new Error('useTranslation() outside an <I18nIsland>');
  return { t };
}
