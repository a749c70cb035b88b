import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheKey, PageCache, type CacheRule } from './page-cache.ts';
import { findFreePort } from '../db/embedded.ts';

const RULE: CacheRule = { pattern: /^\/en\/courses/, maxAgeS: 30, swrS: 30, tags: ['catalogue'] };

/** A real HTTP server with the cache in front of a renderer that counts its calls. */
async function serve(render: (path: string) => Response | Promise<Response>) {
  const calls: string[] = [];
  const cache = new PageCache([RULE], async (path) => {
    calls.push(path);
    return render(path);
  });
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

describe('cacheKey', () => {
  it('ignores tracking parameters and parameter order, and refuses bad paths', () => {
    expect(cacheKey('/en/courses?utm_source=a&b=2&a=1&fbclid=x')).toBe('/en/courses?a=1&b=2');
    expect(cacheKey('/en/%E0%A4%A')).toBeUndefined();
    expect(cacheKey(`/en/${'x'.repeat(3000)}`)).toBeUndefined();
  });
});
