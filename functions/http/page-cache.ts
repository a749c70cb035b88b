import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import { LRUCache } from 'lru-cache';
import { log } from '../log.ts';
import { within } from '../timeout.ts';
import {
  bestBrotliInBackground,
  compressInBackground,
  etagOf,
  FAST_QUALITY,
  isCompressible,
  sendFromMemory,
  type MemoryBody,
} from './precompress.ts';

/**
 * An in-process page cache in front of Astro, for pages that are the same for every reader
 * (catalogue, course pages, blog). A cached page is served like a static file: from memory,
 * pre-compressed. Concurrent misses share one render; a stale page is served while a fresh one
 * renders; a tag purge (an editor's change, announced through PostgreSQL NOTIFY) drops pages at once,
 * and a render that was under way during the purge is not kept.
 */
export interface CacheRule {
  pattern: RegExp;
  /** Seconds a page is fresh. */
  maxAgeS: number;
  /** Further seconds a stale page may be served while it refreshes. */
  swrS: number;
  tags: string[];
  /**
   * The query parameters this page reads, parsed and written back in one canonical form (`?a=1&b=2`
   * or ''). Everything else in the query is dropped, so it shares the canonical page. Default: none.
   */
  canonicalQuery?: (params: URLSearchParams) => string;
}

interface Entry extends MemoryBody {
  status: number;
  headers: Record<string, string>;
  storedAt: number;
  rule: CacheRule;
  /** Its brotli and gzip variants being made (settled once they are, or given up). */
  compressing?: Promise<unknown>;
  /** Its brotli is the fast one, and no better one is being made yet: made when it is served again. */
  upgradable?: boolean;
}

/**
 * How long the requests that made a page wait for its compressed variants (made in zlib's thread
 * pool, a few milliseconds): a first visit then gets brotli, not the whole page uncompressed.
 */
const FIRST_COMPRESSION_WAIT_MS = 100;

/** Renders a page for the cache: the path (with query) as an anonymous visitor would get it. */
export type PageRenderer = (pathWithQuery: string, headers: Record<string, string>) => Promise<Response>;

const CACHEABLE_STATUS = new Set([200, 404]);
const STORED_HEADERS = [
  'content-type',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'content-language',
  'link',
];
const MAX_URL_LENGTH = 2048;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const MIN_BUDGET_BYTES = 16 * 1024 * 1024;
const MEGABYTE = 1024 * 1024;

/**
 * The cache's byte budget: `configuredMb` (PAGE_CACHE_MB) when set, else a sixteenth of the memory the
 * process may use (a container's limit where there is one, else the machine's), between 16 and 64 MB:
 * 32 MB on a 512 MB instance, 64 MB from 1 GB on. The process grows about three times its budget under a
 * flood of distinct URLs (the pages' rendering and compression), so more would not fit a small instance.
 */
export function pageCacheBytes(configuredMb: number | undefined, memoryBytes = memoryLimitBytes()): number {
  if (configuredMb !== undefined) return configuredMb * MEGABYTE;
  return Math.min(DEFAULT_MAX_BYTES, Math.max(MIN_BUDGET_BYTES, Math.floor(memoryBytes / 16 / MEGABYTE) * MEGABYTE));
}

/** The memory this process may use: its cgroup's limit (a container's `memory.max`) when lower than the machine's. */
export function memoryLimitBytes(): number {
  const constrained = process.constrainedMemory();
  return constrained > 0 && constrained < os.totalmem() ? constrained : os.totalmem();
}

export class PageCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #filling = new Map<string, { rule: CacheRule; entry: Promise<Entry | undefined> }>();
  /** Purges so far, per tag (`*` counts purges of everything): a fill that saw one change is not kept. */
  readonly #purges = new Map<string, number>();
  readonly #rules: CacheRule[];
  readonly #render: PageRenderer;

  readonly #security: { production: boolean };

  constructor(rules: CacheRule[], render: PageRenderer, { maxBytes = DEFAULT_MAX_BYTES, production = false } = {}) {
    this.#rules = rules;
    this.#security = { production };
    this.#render = render;
    this.#entries = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (entry, key) => sizeOf(entry, key) });
  }

  /**
   * Serves a page at once when a fresh copy is held (compressed, if the client takes it): the common
   * case, without waiting for anything. False: `handle` decides.
   */
  serveFresh(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const match = this.#match(req.url ?? '/');
    const entry = match && this.#entries.get(match.key);
    if (!entry || (Date.now() - entry.storedAt) / 1000 > entry.rule.maxAgeS || (entry.compressing && !entry.br)) return false;
    sendFromMemory(req, res, entry.status, entry.headers, entry, this.#security);
    this.#upgrade(match.key, entry);
    return true;
  }

  /** Serves a cacheable page from memory (filling it first if needed). False: not ours, pass it on. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const match = this.#match(req.url ?? '/');
    if (!match) return false;
    const { key, rule } = match;

    const held = this.#entries.get(key);
    const age = held ? (Date.now() - held.storedAt) / 1000 : Infinity;
    const entry = !held || age > held.rule.maxAgeS + held.rule.swrS ? await this.#fill(key, rule) : held;
    if (held && entry === held && age > held.rule.maxAgeS) void this.#fill(key, rule);
    if (!entry) return false;
    if (entry.compressing && !entry.br && /\b(br|gzip)\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      await within(entry.compressing, FIRST_COMPRESSION_WAIT_MS, undefined);
    }
    sendFromMemory(req, res, entry.status, entry.headers, entry, this.#security);
    if (entry === held) this.#upgrade(key, entry);
    return true;
  }

  /**
   * A page served again gets its brotli at the best quality, in the background: the cost is spent on
   * pages that are read, not on each of a flood of distinct ones that may never be asked for again.
   */
  #upgrade(key: string, entry: Entry): void {
    if (!entry.upgradable) return;
    entry.upgradable = false;
    void bestBrotliInBackground(entry.identity).then((br) => {
      if (!br || this.#entries.peek(key) !== entry) return;
      entry.br = br;
      this.#recount(key, entry);
    });
  }

  /** Drops every page carrying one of these tags (`*`: every page). Returns how many were dropped. */
  purge(tags: string[]): number {
    for (const tag of tags) this.#purges.set(tag, (this.#purges.get(tag) ?? 0) + 1);
    const hit = (rule: CacheRule) => tags.includes('*') || rule.tags.some((tag) => tags.includes(tag));
    // Renders under way started before this change: later requests must not join them.
    for (const [key, fill] of this.#filling) if (hit(fill.rule)) this.#filling.delete(key);
    let dropped = 0;
    for (const [key, entry] of this.#entries.entries()) {
      if (hit(entry.rule)) {
        this.#entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Bytes held (bodies and their compressed variants). */
  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  #match(rawUrl: string): { key: string; rule: CacheRule } | undefined {
    const parsed = parseUrl(rawUrl);
    if (!parsed) return undefined;
    const rule = this.#rules.find((candidate) => candidate.pattern.test(parsed.pathname));
    if (!rule) return undefined;
    return { key: `${parsed.pathname}${rule.canonicalQuery?.(parsed.searchParams) ?? ''}`, rule };
  }

  #fill(key: string, rule: CacheRule): Promise<Entry | undefined> {
    const pending = this.#filling.get(key);
    if (pending) return pending.entry;
    const fill = {
      rule,
      entry: this.#renderEntry(key, rule).finally(() => {
        if (this.#filling.get(key) === fill) this.#filling.delete(key);
      }),
    };
    this.#filling.set(key, fill);
    return fill.entry;
  }

  async #renderEntry(key: string, rule: CacheRule): Promise<Entry | undefined> {
    const startedAt = Date.now();
    const purgesBefore = this.#purgeCount(rule);
    let response: Response;
    try {
      response = await this.#render(key, { 'accept-encoding': 'identity' });
    } catch (error) {
      log.error({ key, err: error }, 'page cache render failed');
      return undefined;
    }
    const identity = Buffer.from(await response.arrayBuffer());
    if (!CACHEABLE_STATUS.has(response.status) || response.headers.has('set-cookie')) return undefined;
    // One object per page, its cache headers included: the list sent with it is made once (precompress.ts).
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = response.headers.get(name);
      if (value) headers[name] = value;
    }
    Object.assign(headers, sharedCacheHeaders(rule));
    const entry: Entry = { status: response.status, headers, identity, etag: etagOf(identity), storedAt: startedAt, rule };
    // Rendered from data older than a purge that arrived meanwhile: good enough for the requests that
    // were already waiting for it, never kept for later ones.
    if (this.#purgeCount(rule) !== purgesBefore) return entry;
    this.#entries.set(key, entry);
    if (isCompressible(headers['content-type'] ?? '', identity.length)) {
      entry.compressing = compressInBackground(identity, FAST_QUALITY).then(
        (variants) => {
          delete entry.compressing;
          if (!variants) return;
          Object.assign(entry, variants, { upgradable: true });
          if (this.#entries.peek(key) === entry) this.#recount(key, entry);
        },
        () => delete entry.compressing,
      );
    }
    return entry;
  }

  /** Counted again at its size now (setting the same object again would keep the old size). */
  #recount(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
  }

  #purgeCount(rule: CacheRule): number {
    return rule.tags.reduce((sum, tag) => sum + (this.#purges.get(tag) ?? 0), this.#purges.get('*') ?? 0);
  }
}

function sizeOf(entry: Entry, key: string): number {
  return key.length + entry.identity.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) + 512;
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

/** The request's path and query, or undefined for URLs we will not cache (too long, malformed). */
function parseUrl(rawUrl: string): URL | undefined {
  if (rawUrl.length > MAX_URL_LENGTH) return undefined;
  try {
    const url = new URL(rawUrl, 'http://cache.key');
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return undefined;
  }
}
