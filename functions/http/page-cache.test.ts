import http from 'node:http';
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLimitBytes, PageCache, pageCacheBytes, type CacheRule } from './page-cache.ts';
import { CACHE_RULES } from './cache-rules.ts';
import { findFreePort } from '../db/embedded.ts';
import { nextRequestId } from './http-server.ts';
import { compressVariants, FAST_QUALITY } from './precompress.ts';

const RULE: CacheRule = {
  pattern: /^\/en\/courses/,
  maxAgeS: 30,
  swrS: 30,
  tags: ['catalogue'],
  canonicalQuery: (params) => {
    const kept = [...params].filter(([name]) => name === 'a' || name === 'b').sort(([x], [y]) => x.localeCompare(y));
    return kept.length ? `?${new URLSearchParams(kept).toString()}` : '';
  },
};

/** A real HTTP server with the cache in front of a renderer that counts its calls. */
async function serve(
  render: (path: string) => Response | Promise<Response>,
  { rules = [RULE], maxBytes }: { rules?: CacheRule[]; maxBytes?: number } = {},
) {
  const calls: string[] = [];
  const cache = new PageCache(
    rules,
    async (path) => {
      calls.push(path);
      return render(path);
    },
    maxBytes ? { maxBytes } : {},
  );
  const server = http.createServer((req, res) => {
    void cache.handle(req, res).then((served) => {
      if (!served) res.writeHead(418).end('not cached');
    });
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}${path}`, { headers });
  return { cache, calls, get, close: () => new Promise((resolve) => server.close(resolve)) };
}

const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });

afterEach(() => vi.useRealTimers());

describe('PageCache', () => {
  it('renders a page once, then serves it from memory, compressed, with an ETag', async () => {
    const app = await serve(() => html('<p>catalogue</p>'.repeat(200)));
    const first = await app.get('/en/courses?b=2&a=1&utm_source=x', { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('catalogue');
    const second = await app.get('/en/courses?a=1&b=2');
    expect(app.calls).toEqual(['/en/courses?a=1&b=2']);
    expect(second.headers.get('etag')).toBeTruthy();
    expect((await app.get('/en/courses?a=1&b=2', { 'if-none-match': second.headers.get('etag')! })).status).toBe(304);
    expect(second.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=30');
    expect(second.headers.get('cache-tag')).toBe('catalogue');
    await app.close();
  });

  it('shares one render between concurrent misses', async () => {
    const app = await serve(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return html('slow');
    });
    await Promise.all(Array.from({ length: 20 }, () => app.get('/en/courses')));
    expect(app.calls).toHaveLength(1);
    await app.close();
  });

  it('serves a stale page while refreshing it, and never one older than maxAge + swr', async () => {
    let version = 1;
    const app = await serve(() => html(`version ${version}`));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    expect(await (await app.get('/en/courses')).text()).toBe('version 1');
    version = 2;
    vi.setSystemTime(new Date('2026-11-22T10:00:20Z'));
    expect(await (await app.get('/en/courses')).text()).toBe('version 1');
    vi.setSystemTime(new Date('2026-11-22T10:00:45Z'));
    expect(await (await app.get('/en/courses')).text()).toBe('version 1');
    await vi.waitFor(() => expect(app.calls).toHaveLength(2));
    expect(await (await app.get('/en/courses')).text()).toBe('version 2');
    version = 3;
    vi.setSystemTime(new Date('2026-11-22T10:02:00Z'));
    expect(await (await app.get('/en/courses')).text()).toBe('version 3');
    await app.close();
  });

  it('drops pages at once when their tag is purged', async () => {
    let version = 1;
    const app = await serve(() => html(`version ${version}`));
    await app.get('/en/courses');
    version = 2;
    expect(app.cache.purge(['blog'])).toBe(0);
    expect(await (await app.get('/en/courses')).text()).toBe('version 1');
    expect(app.cache.purge(['catalogue'])).toBe(1);
    expect(await (await app.get('/en/courses')).text()).toBe('version 2');
    await app.close();
  });

  it('caches 404s but never errors, cookies or paths outside its rules', async () => {
    const app = await serve((path) =>
      path.includes('boom')
        ? html('error', 500)
        : path.includes('cookie')
          ? html('x', 200, { 'set-cookie': 'a=b' })
          : html('missing', 404),
    );
    expect((await app.get('/en/courses/unknown')).status).toBe(404);
    expect((await app.get('/en/courses/unknown')).status).toBe(404);
    expect(app.calls.filter((path) => path === '/en/courses/unknown')).toHaveLength(1);
    expect((await app.get('/en/courses/boom')).status).toBe(418);
    expect((await app.get('/en/courses/cookie')).status).toBe(418);
    expect((await app.get('/en/dashboard')).status).toBe(418);
    await app.close();
  });
});

describe('PageCache at its edges', () => {
  it('never keeps a render that a purge overtook, and later requests do not join it', async () => {
    let version = 1;
    let release!: () => void;
    const app = await serve(async () => {
      const rendered = version;
      if (rendered === 1) await new Promise<void>((resolve) => (release = resolve));
      return html(`version ${rendered}`);
    });
    const slow = app.get('/en/courses');
    await vi.waitFor(() => expect(app.calls).toHaveLength(1));
    version = 2;
    app.cache.purge(['catalogue']); // the editor's change lands while version 1 renders
    const afterPurge = app.get('/en/courses');
    // It renders afresh while the overtaken render is still under way.
    await vi.waitFor(() => expect(app.calls).toHaveLength(2));
    release();
    expect(await (await slow).text()).toBe('version 1');
    expect(await (await afterPurge).text()).toBe('version 2');
    expect(await (await app.get('/en/courses')).text()).toBe('version 2');
    expect(app.calls).toHaveLength(2);
    await app.close();
  });

  it('keys a page only by the parameters its rule reads', async () => {
    const app = await serve((path) => html(path), { rules: CACHE_RULES });
    const catalogue = [
      '/en/courses?utm_source=x&search=cat&difficulty=beginner',
      '/en/courses?difficulty=beginner&search=cat&nonsense=1&page=1',
    ];
    for (const url of catalogue) expect(await (await app.get(url)).text()).toBe('/en/courses?search=cat&difficulty=beginner');
    await app.get('/en/courses?difficulty=nope&maxPrice=99999');
    // The display currency and the order are part of the page; an unknown currency is not.
    await app.get('/tr/courses?sort=price-asc&cookie=TRY&currency=USD&maxPrice=5');
    await app.get('/tr/courses?currency=GBP');
    await app.get('/api/courses?lang=tr&x=1&search=a');
    await app.get('/en/courses/abc?canceled=true&x=1');
    await app.get('/en/blog?page=7');
    expect(app.calls).toEqual([
      '/en/courses?search=cat&difficulty=beginner',
      '/en/courses',
      '/tr/courses?maxPrice=5&currency=USD&sort=price-asc',
      '/tr/courses',
      '/api/courses?search=a&lang=tr',
      '/en/courses/abc?canceled=true',
      '/en/blog',
    ]);
    expect((await app.get(`/en/${'x'.repeat(3000)}`)).status).toBe(418);
    expect((await app.get('/en/courses/%E0%A4%A')).status).toBe(418);
    await app.close();
  });

  it('holds at most its byte budget, compressed variants included, dropping the least recently used', async () => {
    const app = await serve((path) => html(`<p>${path}</p>`.repeat(2000)), { maxBytes: 200_000 });
    for (let n = 0; n < 60; n++) await app.get(`/en/courses?a=${n}`);
    await vi.waitFor(() => expect(app.cache.bytes).toBeLessThanOrEqual(200_000));
    expect(app.cache.size).toBeGreaterThan(1);
    expect(app.cache.size).toBeLessThan(60);
    await app.get('/en/courses?a=59');
    expect(app.calls.filter((path) => path === '/en/courses?a=59')).toHaveLength(1);
    await app.close();
  });

  it('sends a cached page with its security headers, made once for the page, and a cheap request id of its own', async () => {
    const app = await serve(() => html('<p>catalogue</p>'.repeat(200), 200, { 'content-security-policy': "script-src 'self'" }));
    await app.get('/en/courses');
    const [first, second] = [await app.get('/en/courses'), await app.get('/en/courses')];
    for (const response of [first, second]) {
      expect(response.headers.get('content-security-policy')).toBe("script-src 'self'; frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      // frame-ancestors says it: the older header adds only bytes.
      expect(response.headers.get('x-frame-options')).toBeNull();
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
    const ids = Array.from({ length: 1000 }, nextRequestId);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9A-F]{12}$/);
    await app.close();
  });

  it("counts a page's compressed variants in its budget, each held in a buffer of its own size", async () => {
    const body = '<p>catalogue</p>'.repeat(500);
    const app = await serve(() => html(body));
    const length = async (encoding: string) =>
      Number((await app.get('/en/courses', { 'accept-encoding': encoding })).headers.get('content-length'));
    await length('br');
    const [br, gzip] = [await length('br'), await length('gzip')];
    expect(br).toBeLessThan(body.length);
    expect(app.cache.bytes).toBe('/en/courses'.length + body.length + br + gzip + 512);
    const variants = await compressVariants(Buffer.from(body), FAST_QUALITY);
    expect(variants.br.buffer.byteLength).toBe(variants.br.length);
    expect(variants.gzip.buffer.byteLength).toBe(variants.gzip.length);
    await app.close();
  });

  it('compresses a fresh page fast, and a page read again at the best quality in the background', async () => {
    const words = Array.from({ length: 6000 }, (_, n) => `w${(n * 7919) % 1013}`).join(' ');
    const app = await serve(() => html(`<p>${words}</p>`));
    const br = { 'accept-encoding': 'br' };
    const first = await app.get('/en/courses', br);
    expect(await first.text()).toBe(`<p>${words}</p>`);
    const fast = Number(first.headers.get('content-length'));
    await app.get('/en/courses', br);
    await vi.waitFor(async () =>
      expect(Number((await app.get('/en/courses', br)).headers.get('content-length'))).toBeLessThan(fast),
    );
    expect(await (await app.get('/en/courses', br)).text()).toBe(`<p>${words}</p>`);
    expect(app.calls).toEqual(['/en/courses']);
    await app.close();
  });

  it('compresses a fresh page in the thread pool, and its first visitor already gets brotli', async () => {
    const app = await serve(() => html('<p>catalogue</p>'.repeat(500)));
    const first = await app.get('/en/courses', { 'accept-encoding': 'br' });
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(await first.text()).toContain('catalogue');
    expect((await app.get('/en/courses', { 'accept-encoding': 'gzip' })).headers.get('content-encoding')).toBe('gzip');
    expect((await app.get('/en/courses', { 'accept-encoding': 'identity' })).headers.get('content-encoding')).toBeNull();
    expect(app.calls).toEqual(['/en/courses']);
    await app.close();
  });
});

describe('the page cache budget', () => {
  it('follows the memory the process may use unless PAGE_CACHE_MB sets it', () => {
    const mb = 1024 * 1024;
    expect(pageCacheBytes(undefined, 256 * mb)).toBe(16 * mb);
    expect(pageCacheBytes(undefined, 512 * mb)).toBe(32 * mb);
    expect(pageCacheBytes(undefined, 16 * 1024 * mb)).toBe(64 * mb);
    expect(pageCacheBytes(200, 512 * mb)).toBe(200 * mb);
    expect(memoryLimitBytes()).toBeGreaterThan(0);
    expect(memoryLimitBytes()).toBeLessThanOrEqual(os.totalmem());
  });
});
