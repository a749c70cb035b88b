import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorResponse, failureResponse, NO_STORE, noStoreJson, resultResponse } from './http.ts';
import { conflict, notFound, notFoundAs, ok, unavailable } from './result.ts';

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

describe('one way from a refusal to HTTP', () => {
  // The checkout's refusals travel as Results too: the course gone (its own words, 404) and a paid
  // course while no provider takes it (this shop, 503), beside a provider that failed (502).
  it.each([
    [notFound, 404, { code: 'not_found', message: 'errors.notFound' }],
    [
      notFoundAs('course_not_found', 'checkout.courseNotFound'),
      404,
      { code: 'course_not_found', message: 'checkout.courseNotFound' },
    ],
    [
      unavailable('payments_unavailable', 'course.notForSaleNow', 'here'),
      503,
      { code: 'payments_unavailable', message: 'course.notForSaleNow' },
    ],
    [
      unavailable('provider_failed', 'admin.people.refund.providerFailed'),
      502,
      { code: 'provider_failed', message: 'admin.people.refund.providerFailed' },
    ],
    [conflict('has_password', 'settings.hasPassword'), 409, { code: 'has_password', message: 'settings.hasPassword' }],
  ] as const)('%o answers %i', async (failure, status, error) => {
    for (const response of [failureResponse(failure), resultResponse(failure, () => ({}))]) {
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error });
    }
  });
});
