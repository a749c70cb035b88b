import { describe, expect, it } from 'vitest';
import { localizedPath, negotiateLanguage, switchLanguage } from './languages.ts';

describe('negotiateLanguage', () => {
  it('prefers the cookie over the browser', () => {
    expect(negotiateLanguage('tr', 'en-US,en;q=0.9')).toBe('tr');
  });
  it('reads Accept-Language by weight', () => {
    expect(negotiateLanguage(undefined, 'de-DE,tr;q=0.8,en;q=0.5')).toBe('tr');
    expect(negotiateLanguage(undefined, 'en;q=0.3, tr-TR;q=0.9')).toBe('tr');
    expect(negotiateLanguage(undefined, 'TR')).toBe('tr');
  });
  it('falls back to English for unknown or malformed input', () => {
    expect(negotiateLanguage('xx', 'de,fr;q=0.5')).toBe('en');
    expect(negotiateLanguage(undefined, null)).toBe('en');
    expect(negotiateLanguage(undefined, ';;;q=abc,,')).toBe('en');
    expect(negotiateLanguage(undefined, 'tr;q=0')).toBe('en');
  });
});

describe('switchLanguage', () => {
  it('replaces the language and keeps path, query and hash', () => {
    expect(switchLanguage('/en/courses?category=design&maxPrice=5#top', 'tr')).toBe('/tr/courses?category=design&maxPrice=5#top');
    expect(switchLanguage('/tr/', 'en')).toBe('/en/');
    expect(switchLanguage('/tr', 'en')).toBe('/en/');
  });
  it('adds a language to an unprefixed path', () => {
    expect(switchLanguage('/courses?search=a', 'tr')).toBe('/tr/courses?search=a');
  });
});

describe('localizedPath', () => {
  it('prefixes paths and keeps queries', () => {
    expect(localizedPath('tr', '/courses?category=design')).toBe('/tr/courses?category=design');
    expect(localizedPath('en')).toBe('/en/');
    expect(localizedPath('en', 'blog')).toBe('/en/blog');
  });
});
