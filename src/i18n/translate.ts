import type { Language } from './languages.ts';

/**
 * The translator islands use: i18next's `t(key, options)` for what the shop's strings need, in a few
 * hundred bytes instead of i18next and both dictionaries. `{{name}}` takes `options.name`; with a
 * numeric `count`, `key_one` / `key_other` (Intl.PluralRules of the language) win over `key`; an
 * unknown key is shown as itself. `translate.test.ts` holds it to i18next's output on every key.
 */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The strings an island receives with its props: its page's language and its subset of the dictionary. */
export interface IslandMessages {
  lang: Language;
  strings: Record<string, string>;
}

/**
 * The strings an island may show, declared next to it: `'auth.'` takes every key under `auth.`, a
 * full key takes that key (and its plural forms). The page sends the subset with the island's props
 * (`islandMessages` in src/i18n/i18n.ts); `island-messages.test.ts` fails when an island can show a
 * key its scopes miss, including the error keys the endpoints it calls can answer.
 */
export function messageScopes<const S extends readonly string[]>(...scopes: S): S {
  return scopes;
}

/** Whether a key belongs to scopes made by `messageScopes`. */
export function inScopes(key: string, scopes: readonly string[]): boolean {
  const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
  return scopes.some((scope) => (scope.endsWith('.') ? key.startsWith(scope) : base === scope || key === scope));
}

export function translator({ lang, strings }: IslandMessages): Translate {
  const plurals = new Intl.PluralRules(lang);
  return (key, options) => {
    const count = options?.['count'];
    const text = (typeof count === 'number' ? strings[`${key}_${plurals.select(count)}`] : undefined) ?? strings[key];
    if (text === undefined) return key;
    if (!options) return text;
    return text.replace(/{{\s*(\w+)\s*}}/g, (match, name: string) => (name in options ? String(options[name]) : match));
  };
}
