import { describe, expect, it } from 'vitest';
import { getT, islandMessages, MESSAGES } from './i18n.ts';
import { LANGUAGES } from './languages.ts';
import { inScopes, translator } from './translate.ts';

/** The islands' translator says exactly what the server's i18next says, on every key of both languages. */
describe('the island translator', () => {
  for (const lang of LANGUAGES) {
    it(`matches i18next on every ${lang} key, with interpolation and plurals`, () => {
      const t = translator({ lang, strings: MESSAGES[lang] });
      const server = getT(lang);
      const keys = [...new Set(Object.keys(MESSAGES[lang]).map((key) => key.replace(/_(one|other)$/, '')))];
      for (const key of keys) {
        const variables = Object.fromEntries(
          [
            ...(
              MESSAGES[lang][key as keyof (typeof MESSAGES)['en']] ??
              MESSAGES[lang][`${key}_other` as keyof (typeof MESSAGES)['en']]
            ).matchAll(/{{\s*(\w+)\s*}}/g),
          ].map((match) => [match[1]!, `<${match[1]}>`]),
        );
        expect(t(key), key).toBe(server(key));
        expect(t(key, variables), key).toBe(server(key, variables));
        for (const count of [0, 1, 2, 21])
          expect(t(key, { ...variables, count }), `${key} ×${count}`).toBe(server(key, { ...variables, count }));
      }
    });
  }

  it('shows an unknown key as itself, and leaves an unknown variable in place', () => {
    const t = translator({ lang: 'en', strings: { 'a.b': 'Hi {{name}}, {{other}}' } });
    expect(t('x.y')).toBe('x.y');
    expect(t('a.b', { name: 'Ayşe' })).toBe('Hi Ayşe, {{other}}');
  });

  it('sends an island only the keys of its scopes, plural forms included', () => {
    const { strings } = islandMessages('tr', ['auth.', 'catalogue.resultCount']);
    expect(Object.keys(strings).every((key) => inScopes(key, ['auth.', 'catalogue.resultCount']))).toBe(true);
    expect(strings['auth.email']).toBe(MESSAGES.tr['auth.email']);
    expect(Object.keys(strings).some((key) => key.startsWith('catalogue.resultCount_'))).toBe(true);
    expect(strings['nav.courses']).toBeUndefined();
  });
});
