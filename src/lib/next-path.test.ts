import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path.ts';

/** Every spelling of "another site" a browser would follow: the parser drops tab, CR and LF anywhere. */
const OFF_SITE = [
  'https://evil.example',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\r/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/\t\\evil.example',
  '/\n\\evil.example',
  '/\t\t/evil.example',
  '\t//evil.example',
  ' //evil.example',
  '/\u0009/evil.example/steal?x=1#y',
  '/a/../..//evil.example',
  'javascript:alert(1)',
  'en/x',
];

describe('safeNextPath', () => {
  it('follows a path on this site, with its query and fragment', () => {
    expect(safeNextPath('/tr/dashboard/courses', '/en')).toBe('/tr/dashboard/courses');
    expect(safeNextPath('/en/courses?page=2#list', '/en')).toBe('/en/courses?page=2#list');
  });

  it('drops every spelling that leaves the site', () => {
    for (const next of [null, '', ...OFF_SITE]) expect(safeNextPath(next, '/en'), JSON.stringify(next)).toBe('/en');
  });

  it('keeps a percent-encoded tab as a path of this site (the query was decoded once already)', () => {
    const kept = safeNextPath('/%09/evil.example', '/en');
    expect(kept).toBe('/%09/evil.example');
    expect(new URL(kept, 'https://shop.example').origin).toBe('https://shop.example');
  });

  it('answers only paths that stay on the site, whatever the input', () => {
    const odd = ['/./\\evil.example', '/%2F/evil.example', '/\u0000/x', '/ /x', '/x\\y'];
    for (const next of [...odd, ...OFF_SITE]) {
      const path = safeNextPath(next, '/en');
      expect(new URL(path, 'https://shop.example').origin, JSON.stringify(next)).toBe('https://shop.example');
      expect(path.startsWith('//'), JSON.stringify(next)).toBe(false);
    }
  });
});
