import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { STATIC_TAG } from './cache-rules.ts';
import { sharedCacheHeaders } from './page-cache.ts';
import { compressInBackground, etagOf, isCompressible, sendFromMemory, type MemoryBody } from './precompress.ts';

/**
 * The build's static files (hashed assets and public/; no page is pre-rendered, decision 30), held in
 * memory with the brotli and gzip variants the build wrote beside them: serving one costs a map lookup
 * and a write.
 */
interface StaticFile extends MemoryBody {
  /** Its type and cache headers: one object per file, so the list sent with it is made once. */
  headers: Record<string, string>;
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
const IMMUTABLE = 'public, max-age=31536000, immutable';
// public/ files change only with a deploy (purge the CDN's `static` tag then).
const PUBLIC_FILE = sharedCacheHeaders({ maxAgeS: 300, swrS: 60, tags: [STATIC_TAG] });

export type StaticHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export function loadStaticFiles(clientDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const file of walk(clientDir)) {
    // The variants written by the build are read with their file, not served on their own.
    if (/\.(br|gz)$/.test(file) && existsSync(file.slice(0, -'.br'.length))) continue;
    const relative = `/${path.relative(clientDir, file).split(path.sep).join('/')}`;
    const identity = readFileSync(file);
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    const entry: StaticFile = {
      identity,
      etag: etagOf(identity),
      headers: { 'Content-Type': type, ...(relative.startsWith('/_astro/') ? { 'Cache-Control': IMMUTABLE } : PUBLIC_FILE) },
    };
    if (isCompressible(type, identity.length)) attachVariants(entry, file);
    files.set(relative, entry);
  }
  return files;
}

/** From the build's `.br`/`.gz` files; a file the build did not compress is compressed in the background. */
function attachVariants(entry: StaticFile, file: string): void {
  if (existsSync(`${file}.br`) && existsSync(`${file}.gz`)) {
    entry.br = readFileSync(`${file}.br`);
    entry.gzip = readFileSync(`${file}.gz`);
    return;
  }
  void compressInBackground(entry.identity).then((variants) => variants && Object.assign(entry, variants));
}

export function createStaticHandler(files: Map<string, StaticFile>, security: { production: boolean }): StaticHandler {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const pathname = (req.url ?? '/').split('?')[0]!;
    const file = files.get(pathname);
    if (!file) return false;
    sendFromMemory(req, res, 200, file.headers, file, security);
    return true;
  };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}
