import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorResponse, NO_STORE, noStoreJson, resultResponse } from './http.ts';
import { notFound, ok } from './result.ts';

// Endpoints the order room's move (issue 34) and the sign-in work still own: they join after those land.

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(folder, name));
}

describe('one Cache-Control for JSON answers', () => {
  it('marks data, refusals and results alike', () => {
    for (const response of [
      noStoreJson({ a: 1 }, 201),
      errorResponse(404, 'not_found', 'errors.notFound'),
      resultResponse(ok(1), (value) => ({ value })),
      resultResponse(notFound, (value) => ({ value })),
    ])
      expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(NO_STORE).toEqual({ 'Cache-Control': 'private, no-store' });
  });

  it('is spelled only in src/lib/http.ts', () => {
    const spelled = [...sourcesUnder('src/pages/api'), ...sourcesUnder('src/server')].filter((file) =>
      /no-store/.test(readFileSync(file, 'utf8')),
    );
    expect(spelled).toEqual([]);
  });
});
