import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path.ts';

describe('safeNextPath', () => {
  it('follows a path on this site and drops anything that could leave it', () => {
    expect(safeNextPath('/tr/dashboard/courses', '/en')).toBe('/tr/dashboard/courses');
    for (const next of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'en/x'])
      expect(safeNextPath(next, '/en'), String(next)).toBe('/en');
  });
});
