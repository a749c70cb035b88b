import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * An in-process page cache in front of Astro, for pages that are the same for every reader
 * (catalogue, course pages, blog). A cached page is served like a static file: from memory,
 * pre-compressed. Concurrent misses share one render; a stale page is served while a fresh one
 * renders; a tag purge (an editor's change, announced through PostgreSQL NOTIFY) drops pages at once.
 */
export interface CacheRule {
  pattern: RegExp;
  /** Seconds a page is fresh. */
  maxAgeS: number;
  /** Further seconds a stale page may be served while it refreshes. */
  swrS: number;
  tags: string[];
}

interface Entry {
  status: number;
  headers: Record<string, string>;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag: string;
  storedAt: number;
  rule: CacheRule;
}

/** Renders a page for the cache: the path (with query) as an anonymous visitor would get it. */
export type PageRenderer = (pathWithQuery: string, fillHeader: Record<string, string>) => Promise<Response>;

const CACHEABLE_STATUS = new Set([200, 404]);
const STORED_HEADERS = [
  'content-type',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'content-language',
  'link',
];
const TRACKING_PARAMS = /^(utm_.*|fbclid|gclid|msclkid|mc_cid|mc_eid|ref)$/i;
const MIN_COMPRESS_BYTES = 1024;
export const FILL_HEADER = 'x-page-cache-fill';

export class PageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #filling = new Map<string, Promise<Entry | undefined>>();
  readonly #rules: CacheRule[];
  readonly #render: PageRenderer;
  readonly #max: number;
  readonly #fillToken = randomBytes(16).toString('hex');

  constructor(rules: CacheRule[], render: PageRenderer, { maxEntries = 5000 } = {}) {
    this.#rules = rules;
    this.#render = render;
    this.#max = maxEntries;
  }

  /** Whether a request is the cache's own render (it must reach Astro, not the cache). */
  isFill(req: IncomingMessage): boolean {
    return req.headers[FILL_HEADER] === this.#fillToken;
  }

  /** Serves a cacheable page from memory (filling it first if needed). False: not ours, pass it on. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || this.isFill(req)) return false;
    const key = cacheKey(req.url ?? '/');
    if (!key) return false;
    const rule = this.#rules.find((candidate) => candidate.pattern.test(key.split('?')[0]!));
    if (!rule) return false;

    let entry = this.#entries.get(key);
    const age = entry ? (Date.now() - entry.storedAt) / 1000 : Infinity;
    if (!entry || age > entry.rule.maxAgeS + entry.rule.swrS) entry = await this.#fill(key, rule);
    else if (age > entry.rule.maxAgeS) void this.#fill(key, rule);
    if (!entry) return false;
    send(req, res, entry);
    return true;
  }

  /** Drops every page carrying one of these tags (`*`: every page). */
  purge(tags: string[]): number {
    if (tags.includes('*')) {
      const all = this.#entries.size;
      this.#entries.clear();
      return all;
    }
    let dropped = 0;
    for (const [key, entry] of this.#entries) {
      if (entry.rule.tags.some((tag) => tags.includes(tag))) {
        this.#entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.#entries.size;
  }

  #fill(key: string, rule: CacheRule): Promise<Entry | undefined> {
    let pending = this.#filling.get(key);
    if (!pending) {
      pending = this.#renderEntry(key, rule).finally(() => this.#filling.delete(key));
      this.#filling.set(key, pending);
    }
    return pending;
  }

  async #renderEntry(key: string, rule: CacheRule): Promise<Entry | undefined> {
    const startedAt = Date.now();
    let response: Response;
    try {
      response = await this.#render(key, { [FILL_HEADER]: this.#fillToken, 'accept-encoding': 'identity' });
    } catch (error) {
      console.error(`[page-cache] render of ${key} failed:`, (error as Error).message);
      return undefined;
    }
    const identity = Buffer.from(await response.arrayBuffer());
    if (!CACHEABLE_STATUS.has(response.status) || response.headers.has('set-cookie')) return undefined;
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = response.headers.get(name);
      if (value) headers[name] = value;
    }
    const compress =
      /^(text\/|application\/(json|xml|rss\+xml))/.test(headers['content-type'] ?? '') && identity.length >= MIN_COMPRESS_BYTES;
    const entry: Entry = {
      status: response.status,
      headers,
      identity,
      ...(compress
        ? {
            br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
            gzip: gzipSync(identity, { level: 9 }),
          }
        : {}),
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
      // A purge during the render must not be undone by storing what was rendered before it.
      storedAt: startedAt,
      rule,
    };
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, entry);
    return entry;
  }
}

function send(req: IncomingMessage, res: ServerResponse, entry: Entry): void {
  const headers: Record<string, string | number> = {
    ...entry.headers,
    ...sharedCacheHeaders(entry.rule),
    ETag: entry.etag,
    Vary: 'Accept-Encoding',
  };
  if (entry.status === 200 && req.headers['if-none-match'] === entry.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const [body, encoding] =
    entry.br && /\bbr\b/.test(accepted)
      ? [entry.br, 'br']
      : entry.gzip && /\bgzip\b/.test(accepted)
        ? [entry.gzip, 'gzip']
        : [entry.identity, undefined];
  if (encoding) headers['Content-Encoding'] = encoding;
  headers['Content-Length'] = body.length;
  res.writeHead(entry.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Browsers revalidate every time (cheap with the ETag); a CDN in front of several instances may keep
 * the page as long as one instance would (s-maxage + stale-while-revalidate), and can purge it by tag
 * (Cloudflare reads Cache-Tag, Fastly and others Surrogate-Key).
 */
export function sharedCacheHeaders(rule: Pick<CacheRule, 'maxAgeS' | 'swrS' | 'tags'>): Record<string, string> {
  return {
    'Cache-Control': `public, max-age=0, s-maxage=${rule.maxAgeS}, stale-while-revalidate=${rule.swrS}`,
    'Cache-Tag': rule.tags.join(','),
    'Surrogate-Key': rule.tags.join(' '),
  };
}

/** Path plus sorted query without tracking parameters; undefined for paths we will not cache. */
export function cacheKey(rawUrl: string): string | undefined {
  if (rawUrl.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(rawUrl, 'http://cache.key');
    decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  const params = [...url.searchParams].filter(([name]) => !TRACKING_PARAMS.test(name)).sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  return `${url.pathname}${query ? `?${query}` : ''}`;
}
