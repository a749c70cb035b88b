import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { REQUEST_ID_HEADER } from '../log.ts';
import { securityHeadersFor } from './security-headers.ts';

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

/**
 * Brotli qualities: a fresh page is compressed fast (a 26 KB page: 0.5 ms at 5, 6.8 ms at 9), so its
 * first visitors get it at once; a page visited again is compressed anew at the best quality in the
 * background, and the build's files at the best one too.
 */
export const FAST_QUALITY = 5;
export const BEST_QUALITY = 9;

// Each compression allocates its encoder (megabytes for brotli) when it starts: run few at once.
const MAX_RUNNING = 2;
// A burst of new pages beyond this is served uncompressed until it is cached again, rather than queued.
const MAX_WAITING = 100;
let running = 0;
const waiting: (() => void)[] = [];

/**
 * Work for zlib's thread pool, at most MAX_RUNNING at a time. Urgent work (a page a visitor waits for)
 * goes before the queue, the rest after it. Undefined when too much is already waiting (a flood of
 * distinct pages): the caller keeps the body as it is.
 */
async function inTurn<T>(work: () => Promise<T>, { urgent }: { urgent: boolean }): Promise<T | undefined> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) return undefined;
    await new Promise<void>((resolve) => (urgent ? waiting.unshift(resolve) : waiting.push(resolve)));
  }
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Both variants, fast (a page a visitor waits for) or at the best quality (files, once). */
export function compressInBackground(identity: Buffer, quality = BEST_QUALITY): Promise<Required<Variants> | undefined> {
  return inTurn(() => compressVariants(identity, quality), { urgent: quality < BEST_QUALITY });
}

/** A body's brotli at the best quality, made when nothing urgent waits. */
export function bestBrotliInBackground(identity: Buffer): Promise<Buffer | undefined> {
  return inTurn(() => brotliOf(identity, BEST_QUALITY), { urgent: false });
}

export async function compressVariants(identity: Buffer, quality = BEST_QUALITY): Promise<Required<Variants>> {
  const [br, gz] = await Promise.all([
    brotliOf(identity, quality),
    gzipAsync(identity, { level: quality < BEST_QUALITY ? 6 : 9 }).then(ownBuffer),
  ]);
  return { br, gzip: gz };
}

/**
 * zlib's result is a view into its 64 KB output chunk: kept as it is, a 3 KB page would hold 64 KB
 * (the page cache counted 3 KB and grew past its budget several times over). Kept: a copy of its own
 * size, outside Node's shared pool (whose 8 KB slabs a small kept slice would hold too).
 */
function ownBuffer(view: Buffer): Buffer {
  if (view.buffer.byteLength === view.length) return view;
  const own = Buffer.allocUnsafeSlow(view.length);
  view.copy(own);
  return own;
}

async function brotliOf(identity: Buffer, quality: number): Promise<Buffer> {
  const compressed = await brotli(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      // A window no larger than the body: the encoder allocates for its window (4 MB by default).
      [constants.BROTLI_PARAM_LGWIN]: Math.min(
        constants.BROTLI_MAX_WINDOW_BITS,
        Math.max(16, Math.ceil(Math.log2(identity.length + 1))),
      ),
    },
  });
  return ownBuffer(compressed);
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
 * client accepts (brotli, gzip, or none while the variants are still being made). `headers` is the
 * response kind's own (one object per static file or cached page): the full list sent with it, security
 * headers included, is made once per kind and encoding, so a request costs a lookup and a write.
 */
export function sendFromMemory(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: MemoryBody,
  { production }: { production: boolean },
): void {
  const requestId = String(req.headers[REQUEST_ID_HEADER] ?? '');
  if (status === 200 && req.headers['if-none-match'] === body.etag) {
    res.writeHead(304, [...headList(headers, body, 304, undefined, production), 'X-Request-Id', requestId]);
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
  res.writeHead(status, [...headList(headers, body, status, encoding, production), 'X-Request-Id', requestId]);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** Header lists made so far, per response kind's headers, per status, encoding and length. */
const heads = new WeakMap<object, Map<string, string[]>>();

function headList(
  headers: Record<string, string | number>,
  body: MemoryBody,
  status: number,
  encoding: string | undefined,
  production: boolean,
): string[] {
  const bytes = status === 304 ? undefined : encoding === 'br' ? body.br : encoding === 'gzip' ? body.gzip : body.identity;
  const key = `${status} ${encoding ?? ''} ${bytes?.length ?? ''} ${body.etag} ${production}`;
  let kinds = heads.get(headers);
  if (!kinds) heads.set(headers, (kinds = new Map<string, string[]>()));
  let list = kinds.get(key);
  if (!list) {
    // By lower-case name: the page's own policy and the completed one are one header.
    const all = new Map<string, [string, string]>();
    const put = (name: string, value: string | number) => all.set(name.toLowerCase(), [name, String(value)]);
    for (const [name, value] of Object.entries(headers)) put(name, value);
    for (const [name, value] of Object.entries(securityHeadersFor(headers, { production }))) put(name, value);
    put('ETag', body.etag);
    put('Vary', 'Accept-Encoding');
    if (encoding) put('Content-Encoding', encoding);
    if (bytes) put('Content-Length', bytes.length);
    list = [...all.values()].flat();
    // A body's variants change (a better brotli, a new render): the lists of old ones are not kept.
    if (kinds.size >= 8) kinds.clear();
    kinds.set(key, list);
  }
  return list;
}

export function etagOf(identity: Buffer): string {
  return `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
}
