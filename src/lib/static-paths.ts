import { LANGUAGES } from '../i18n/languages.ts';

/** getStaticPaths for pages pre-rendered once per language. */
export function languagePaths() {
  return LANGUAGES.map((lang) => ({ params: { lang } }));
}
