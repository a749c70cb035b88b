import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { listRoutes, sampleUrl, type Access, type Method } from '../../support/routes.ts';
import { isSignedEndpoint } from '../../../src/lib/cross-site.ts';
import { startFakeIyzico, type FakeIyzico } from '../../support/fake-iyzico.ts';

/**
 * Walks every route of the shop (read from src/pages, so new routes are included by themselves):
 * security headers on every kind of response, cross-site writes refused, and the authorization
 * matrix: anonymous / buyer / another buyer / admin, with the path also written encoded, in capitals
 * and with a trailing slash.
 */
type Identity = 'anonymous' | 'buyer' | 'other buyer' | 'admin';
type Outcome = 'allowed' | 'to login' | 'to dashboard';

let server: TestServer;
let iyzico: FakeIyzico;
const browsers = {} as Record<Identity, Browser>;
const samples: Record<string, string> = {};

beforeAll(async () => {
  // A payment provider's callback and webhook (/api/payments/[provider]/…) answer only when configured.
  iyzico = await startFakeIyzico();
  server = await startTestServer(iyzico.settings);
  browsers.anonymous = new Browser(server);
  browsers.buyer = await signedInBrowser(server, {
    email: 'matrix-buyer@example.com',
    role: 'user',
    password: 'matrix password 1',
    fullName: 'Matrix',
  });
  browsers['other buyer'] = await signedInBrowser(server, {
    email: 'matrix-other@example.com',
    role: 'user',
    password: 'matrix password 1',
    fullName: 'Matrix',
  });
  browsers.admin = await signedInBrowser(server, {
    email: 'matrix-admin@example.com',
    role: 'admin',
    password: 'matrix password 1',
    fullName: 'Matrix',
  });
  const course = await db()
    .selectFrom('courses')
    .select(['id', 'cover_image_url'])
    .where('price_minor', '=', 0)
    .executeTakeFirstOrThrow();
  await browsers.buyer.postJson('/api/checkout', {
    acceptTerms: true,
    waiveWithdrawal: true,
    courseId: course.id,
    email: 'matrix-buyer@example.com',
    fullName: 'Matrix Buyer',
    language: 'en',
  });
  const purchase = await db()
    .selectFrom('purchases')
    .innerJoin('users', 'users.id', 'purchases.user_id')
    .select(['purchases.id', 'purchases.download_token'])
    .where('users.email', '=', 'matrix-buyer@example.com')
    .executeTakeFirstOrThrow();
  Object.assign(samples, {
    id: course.id,
    courseId: course.id,
    slug: 'first-monthly-budget',
    token: purchase.download_token!,
    paymentId: `demo_${randomUUID()}`,
    key: course.cover_image_url!.replace('/media/', ''),
    all: 'get-session',
    provider: 'iyzico',
  });
  samples.purchase = purchase.id;
});
afterAll(async () => {
  await server.stop();
  await iyzico.stop();
});

function classify(response: Response): Outcome {
  const location = response.headers.get('location') ?? '';
  // A signed-out browser following an account link lands on a page that asks it to sign in.
  if (response.status === 401 || /\/login\?next=|\/downloads\/unavailable\?reason=signed_out$/.test(location)) return 'to login';
  if (response.status === 403 || /\/dashboard$/.test(location)) return 'to dashboard';
  return 'allowed';
}

function expected(access: Access, identity: Identity): Outcome {
  if (access === 'public' || identity === 'admin') return 'allowed';
  if (identity === 'anonymous') return 'to login';
  return access === 'admin' ? 'to dashboard' : 'allowed';
}

/** The same path as an attacker might write it. */
function variants(url: string, access: Access): string[] {
  if (access === 'public') return [url];
  const [pathname, query = ''] = url.split('?');
  const q = query ? `?${query}` : '';
  const word = access === 'admin' ? 'admin' : url.includes('/dashboard') ? 'dashboard' : 'account';
  const encoded = pathname!.replace(word, `%${word.charCodeAt(0).toString(16)}${word.slice(1)}`);
  return [url, encoded + q, pathname!.toUpperCase() + q, `${pathname}/${q}`];
}

async function send(browser: Browser, method: Method, url: string): Promise<Response> {
  if (method === 'GET') return browser.request(url);
  return browser.request(url, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
}

describe('every route', () => {
  it('answers with the security headers, whatever kind of response it is', async () => {
    const seen = new Set<string>();
    for (const route of listRoutes()) {
      for (const method of route.methods) {
        const response = await send(browsers.anonymous, method, sampleUrl(route.pattern, samples));
        const where = `${method} ${route.pattern} → ${response.status}`;
        const csp = response.headers.get('content-security-policy') ?? '';
        expect(csp, where).toMatch(/frame-ancestors 'none'/);
        expect(csp, where).toMatch(/object-src 'none'/);
        expect(csp, where).toMatch(/base-uri '(self|none)'/);
        expect(response.headers.get('x-content-type-options'), where).toBe('nosniff');
        // The e-mailed download link is stricter still: its URL carries the token.
        expect(['strict-origin-when-cross-origin', 'no-referrer'], where).toContain(response.headers.get('referrer-policy'));
        // /dev/crash exists to show the crash screen: its 500 is the point.
        if (route.pattern.endsWith('/dev/crash')) expect(response.status, where).toBe(500);
        else expect(response.status, where).toBeLessThan(500);
        seen.add(
          `${response.status >= 300 && response.status < 400 ? 'redirect' : response.status === 404 ? '404' : response.headers.get('content-type')?.split(';')[0]}`,
        );
      }
    }
    const pdf = await browsers.buyer.request(`/api/account/purchases/${samples.purchase}/download`);
    const file = await server.fetch(pdf.headers.get('location')!);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    const crash = await server.fetch('/en/dev/crash');
    expect(crash.status).toBe(500);
    expect(crash.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect([...seen]).toEqual(expect.arrayContaining(['text/html', 'application/json', 'redirect', '404']));
  });

  it('serves built files from memory alone, and leaves a small JSON answer uncompressed with its length', async () => {
    // A compressed variant the build wrote beside its file is sent as that file's encoding, never on its own path.
    const assets = path.resolve('dist/client/_astro');
    const variant = readdirSync(assets).find((name) => name.endsWith('.js.br'))!;
    expect((await server.fetch(`/_astro/${variant.slice(0, -'.br'.length)}`)).status).toBe(200);
    expect((await server.fetch(`/_astro/${variant}`)).status).toBe(404);
    const refused = await server.fetch('/api/checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
      body: '{}',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(Number(refused.headers.get('content-length'))).toBe((await refused.arrayBuffer()).byteLength);
  });

  it('marks private pages no-store', async () => {
    for (const path of ['/en/dashboard', '/tr/dashboard/settings', `/en/checkout/${samples.courseId}`]) {
      expect((await browsers.buyer.request(path)).headers.get('cache-control'), path).toContain('no-store');
    }
  });

  it('lets a CDN keep public pages, tagged for purging, and never anything private', async () => {
    const shared = /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/;
    for (const path of [
      '/en/courses',
      `/tr/courses/${samples.courseId}`,
      '/en/blog',
      '/tr/about',
      '/sitemap.xml',
      '/api/courses?lang=en',
    ]) {
      const response = await browsers.buyer.request(path);
      expect(response.headers.get('cache-control'), path).toMatch(shared);
      expect(response.headers.get('cache-tag'), path).toMatch(/^(catalogue|blog|static|shop)(,\w+)*$/);
      expect(response.headers.get('surrogate-key'), path).toMatch(/^(catalogue|blog|static|shop)( \w+)*$/);
    }
    for (const route of listRoutes().filter((candidate) => candidate.methods.includes('GET'))) {
      for (const identity of ['anonymous', 'buyer', 'admin'] as const) {
        const response = await browsers[identity].request(sampleUrl(route.pattern, samples));
        const cacheControl = response.headers.get('cache-control') ?? '';
        const where = `${identity} GET ${route.pattern} → ${response.status} ${cacheControl}`;
        // Anything a shared cache may keep is public by route and sets no cookie; the rest says so.
        if (/\bpublic\b/.test(cacheControl)) {
          expect(route.access, where).toBe('public');
          expect(response.headers.getSetCookie(), where).toEqual([]);
        } else expect(cacheControl, where).toMatch(/private, no-store|no-store/);
      }
    }
  });

  it('refuses cross-site writes in every content-type shape, and keeps the Stripe webhook working', async () => {
    const writes = listRoutes().flatMap((route) =>
      route.methods.filter((method) => method !== 'GET').map((method) => ({ method, url: sampleUrl(route.pattern, samples) })),
    );
    expect(writes.length).toBeGreaterThan(3);
    // Signed endpoints answer servers (Stripe, mail clients), which send no Origin of ours.
    for (const { method, url } of writes.filter((write) => !isSignedEndpoint(write.url.split('?')[0]!))) {
      for (const [type, body] of [
        ['text/plain', '{"email":"a@b.c"}'],
        ['application/x-www-form-urlencoded', 'email=a%40b.c'],
        ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
        ['application/json', '{}'],
      ]) {
        const response = await browsers.buyer.request(url, {
          method,
          headers: { origin: 'https://evil.example', 'content-type': type! },
          body: body!,
        });
        expect(response.status, `${method} ${url} ${type}`).toBe(403);
      }
    }
    const webhook = await server.fetch('/api/stripe/webhook', {
      method: 'POST',
      headers: { origin: 'https://stripe.example', 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      body: '{}',
    });
    expect([400, 404]).toContain(webhook.status);
  });

  it('lets each identity reach exactly what it may: the authorization matrix', async () => {
    const identities = Object.keys(browsers) as Identity[];
    const rows: Record<string, string>[] = [];
    let cells = 0;
    let mismatches = 0;
    for (const route of listRoutes()) {
      for (const method of route.methods) {
        for (const url of variants(sampleUrl(route.pattern, samples), route.access)) {
          const row: Record<string, string> = { route: `${method} ${url}`.slice(0, 70), access: route.access };
          for (const identity of identities) {
            const outcome = classify(await send(browsers[identity], method, url));
            const ok = outcome === expected(route.access, identity);
            cells++;
            if (!ok) mismatches++;
            row[identity] = ok ? outcome : `✗ ${outcome}`;
          }
          rows.push(row);
        }
      }
    }
    console.log(
      `\nAuthorization matrix: ${rows.length} requests × ${identities.length} identities = ${cells} cells, ${mismatches} mismatches`,
    );
    console.table(rows);
    expect(mismatches).toBe(0);

    // Ownership, beyond roles: another buyer cannot reach this buyer's download.
    expect((await browsers.buyer.request(`/api/account/purchases/${samples.purchase}/download`)).status).toBe(302);
    const asJson = { headers: { Accept: 'application/json' } };
    expect((await browsers['other buyer'].request(`/api/account/purchases/${samples.purchase}/download`, asJson)).status).toBe(
      404,
    );
    expect((await browsers.admin.request(`/api/account/purchases/${samples.purchase}/download`, asJson)).status).toBe(404);
    // 1,912 requests: 12 s on a quiet machine, beyond the default 30 s on a busy one.
  }, 90_000);
});

describe('in production', () => {
  it('sends HSTS', async () => {
    const production = await startTestServer({ NODE_ENV: 'production', PRODUCTION_CHECKS: 'test-harness' });
    try {
      expect((await production.fetch('/en/about')).headers.get('strict-transport-security')).toMatch(/max-age=\d{8}/);
      expect((await production.fetch('/api/health')).headers.get('strict-transport-security')).toMatch(/max-age=/);
    } finally {
      await production.stop();
    }
  });
});
