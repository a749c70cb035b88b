import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { STATIC_TAG } from './cache-rules.ts';
import { sharedCacheHeaders } from './page-cache.ts';

/**
 * The build's static files (pre-rendered pages, hashed assets, public/), held in memory with
 * brotli and gzip variants made once at start-up: serving one costs a map lookup and a write.
 */
interface StaticFile {
  identity: Buffer;
  /** A pre-rendered page's policy, from its <meta http-equiv>, to send as a header. */
  csp?: string;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  cacheHeaders: Record<string, string>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml)|image\/svg)/;
const MIN_COMPRESS_BYTES = 1024;
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Pre-rendered pages change only with a deploy (purge the CDN's `static` tag then).
const STATIC_PAGE = sharedCacheHeaders({ maxAgeS: 300, swrS: 60, tags: [STATIC_TAG] });

export type StaticHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export function loadStaticFiles(clientDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const file of walk(clientDir)) {
    const relative = `/${path.relative(clientDir, file).split(path.sep).join('/')}`;
    const identity = readFileSync(file);
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    const compress = COMPRESSIBLE.test(type) && identity.length >= MIN_COMPRESS_BYTES;
    const csp = type.startsWith('text/html') ? metaPolicy(identity.toString('utf8')) : undefined;
    const entry: StaticFile = {
      identity,
      ...(csp ? { csp } : {}),
      type,
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
      cacheHeaders: relative.startsWith('/_astro/') ? { 'Cache-Control': IMMUTABLE } : STATIC_PAGE,
      ...(compress
        ? {
            br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
            gzip: gzipSync(identity, { level: 9 }),
          }
        : {}),
    };
    files.set(relative, entry);
    // Pre-rendered pages are folders with an index.html: /en/about and /en/about/ both serve it.
    if (relative.endsWith('/index.html')) {
      const folder = relative.slice(0, -'index.html'.length);
      files.set(folder, entry);
      if (folder !== '/') files.set(folder.slice(0, -1), entry);
    }
  }
  return files;
}

export function createStaticHandler(files: Map<string, StaticFile>): StaticHandler {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const pathname = (req.url ?? '/').split('?')[0]!;
    const file = files.get(pathname);
    if (!file) return false;
    const headers: Record<string, string | number> = {
      'Content-Type': file.type,
      ...file.cacheHeaders,
      ETag: file.etag,
      Vary: 'Accept-Encoding',
      ...(file.csp ? { 'Content-Security-Policy': file.csp } : {}),
    };
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const [body, encoding] =
      file.br && /\bbr\b/.test(accepted)
        ? [file.br, 'br']
        : file.gzip && /\bgzip\b/.test(accepted)
          ? [file.gzip, 'gzip']
          : [file.identity, undefined];
    if (encoding) headers['Content-Encoding'] = encoding;
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}

function metaPolicy(html: string): string | undefined {
  return html
    .match(/<meta http-equiv="content-security-policy" content="([^"]+)"/i)?.[1]
    ?.replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}
