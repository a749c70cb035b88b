import { describe, expect, it } from 'vitest';
import { languageRedirectTarget } from './language-redirect.ts';

const target = (path: string, cookie?: string, accept: string | null = null) =>
  languageRedirectTarget(new URL(path, 'http://shop.test'), cookie, accept);

describe('languageRedirectTarget', () => {
  it('sends unprefixed pages to the same path and query under the visitor language', () => {
    expect(target('/')).toBe('/en/');
    expect(target('/courses?category=design&search=a%20b', undefined, 'tr-TR,tr;q=0.9')).toBe(
      '/tr/courses?category=design&search=a%20b',
    );
    expect(target('/reset-password?token=abc', 'tr')).toBe('/tr/reset-password?token=abc');
  });
  it('prefixes unknown language segments, as the spec says', () => {
    expect(target('/fr/courses')).toBe('/en/fr/courses');
  });
  it('lower-cases a language segment written in capitals', () => {
    expect(target('/EN/courses?x=1')).toBe('/en/courses?x=1');
    expect(target('/Tr/')).toBe('/tr/');
  });
  it('leaves language pages, endpoints, assets and over-long paths alone', () => {
    expect(target('/en/courses')).toBeUndefined();
    expect(target('/tr')).toBeUndefined();
    expect(target('/api/health')).toBeUndefined();
    expect(target('/_astro/app.js')).toBeUndefined();
    expect(target('/favicon.svg')).toBeUndefined();
    expect(target('/media/covers/a.svg')).toBeUndefined();
    expect(target(`/${'a'.repeat(5000)}`)).toBeUndefined();
  });
});
