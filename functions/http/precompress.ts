import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Brotli and gzip variants of what the server sends from memory (the build's static files, cached
 * pages), made once and never on a request's path: at build time for static files, in the background
 * for a freshly cached page (zlib's thread pool, not the event loop).
 */
export interface Variants {
  br?: Buffer;
  gzip?: Buffer;
}

// Compressing small bodies costs more than it saves.
export const MIN_COMPRESS_BYTES = 1024;
const COMPRESSIBLE_TYPE = /^(text\/|application\/(json|xml|rss\+xml|javascript)|image\/svg\+xml)/;
const COMPRESSIBLE_FILE = /\.(html|css|js|mjs|json|svg|txt|xml)$/i;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function isCompressible(contentType: string, bytes: number): boolean {
  return COMPRESSIBLE_TYPE.test(contentType) && bytes >= MIN_COMPRESS_BYTES;
}

// Each compression allocates its encoder (megabytes for brotli) when it starts: run few at once.
const MAX_RUNNING = 2;
// A burst of new pages beyond this is served uncompressed until it is cached again, rather than queued.
const MAX_WAITING = 100;
let running = 0;
const waiting: (() => void)[] = [];

/**
 * Both variants, made in zlib's thread pool, at most MAX_RUNNING bodies at a time. Undefined when
 * too much is already waiting (a flood of distinct pages): the caller keeps the body as it is.
 */
export async function compressInBackground(identity: Buffer): Promise<Required<Variants> | undefined> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) return undefined;
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  try {
    return await compressVariants(identity);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export async function compressVariants(identity: Buffer): Promise<Required<Variants>> {
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipAsync(identity, { level: 9 }),
  ]);
  return { br, gzip: gz };
}

/** Writes `file.br` and `file.gz` beside every compressible file of a folder (the build's client output). */
export async function precompressFolder(dir: string): Promise<number> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && COMPRESSIBLE_FILE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  let written = 0;
  for (const file of files) {
    const identity = await readFile(file);
    if (identity.length < MIN_COMPRESS_BYTES) continue;
    const { br, gzip: gz } = await compressVariants(identity);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    written++;
  }
  return written;
}

/** A body held in memory with its variants, as the static files and the page cache keep it. */
export interface MemoryBody extends Variants {
  identity: Buffer;
  etag: string;
}

/**
 * Sends a body from memory: 304 when the browser's copy is current, otherwise the best encoding the
 * client accepts (brotli, gzip, or none while the variants are still being made).
 */
export function sendFromMemory(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: MemoryBody,
): void {
  const all: Record<string, string | number> = { ...headers, ETag: body.etag, Vary: 'Accept-Encoding' };
  if (status === 200 && req.headers['if-none-match'] === body.etag) {
    res.writeHead(304, all);
    res.end();
    return;
  }
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const [bytes, encoding] =
    body.br && /\bbr\b/.test(accepted)
      ? [body.br, 'br']
      : body.gzip && /\bgzip\b/.test(accepted)
        ? [body.gzip, 'gzip']
        : [body.identity, undefined];
  if (encoding) all['Content-Encoding'] = encoding;
  all['Content-Length'] = bytes.length;
  res.writeHead(status, all);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export function etagOf(identity: Buffer): string {
  return `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
}
