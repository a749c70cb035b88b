import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What each interface language needs besides its code in LANGUAGES: a dictionary with every key of
 * the default one, and the long page texts. Used by a test, so adding a language without them fails
 * with a list of what is missing.
 */
export function missingForLanguages(languages: readonly string[], root = process.cwd()): string[] {
  const dictionary = (lang: string) => path.join(root, 'src/i18n/locales', `${lang}.json`);
  const reference = Object.keys(JSON.parse(readFileSync(dictionary('en'), 'utf8')) as Record<string, string>);
  const pages = readdirSync(path.join(root, 'content/pages/en'));
  return languages.flatMap((lang) => {
    if (!existsSync(dictionary(lang))) return [`src/i18n/locales/${lang}.json is missing`];
    const keys = new Set(Object.keys(JSON.parse(readFileSync(dictionary(lang), 'utf8')) as Record<string, string>));
    return [
      ...reference.filter((key) => !keys.has(key)).map((key) => `src/i18n/locales/${lang}.json lacks ${key}`),
      ...pages
        .filter((page) => !existsSync(path.join(root, 'content/pages', lang, page)))
        .map((page) => `content/pages/${lang}/${page} is missing`),
    ];
  });
}
