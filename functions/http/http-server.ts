import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import compression from 'compression';
import { REQUEST_ID_HEADER } from '../log.ts';
import type { PageCache } from './page-cache.ts';
import { applySecurityHeaders } from './security-headers.ts';
import { withResponse } from './paced-body.ts';
import { countWhileAnswered } from './in-flight.ts';
import type { StaticHandler } from './static-files.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

// Compressing small bodies costs more than it saves.
const COMPRESSION_THRESHOLD_BYTES = 1024;
/** How much of a body left unread Node may still read and drop, so the connection can serve the next request. */
const UNREAD_BODY_DRAIN_BYTES = 1024 * 1024;
/** How long a sender answered before its body ended may go on sending before the connection closes. */
const UNREAD_BODY_LINGER_MS = 2_000;

/**
 * The shop's HTTP server: the build's static files and cached pages from memory (pre-compressed),
 * everything else through Astro's handler with brotli/gzip compression for text responses.
 */
export function createHttpServer(
  astroHandler: NodeHandler,
  {
    serveStatic,
    pageCache,
    production = false,
    countRequest,
  }: {
    serveStatic?: StaticHandler;
    pageCache?: PageCache;
    production?: boolean;
    /** Sees every request first, whoever answers it (the funnel's view counter). */
    countRequest?: ((req: IncomingMessage) => void) | undefined;
  } = {},
): http.Server {
  const compress = compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: isCompressible });
  const render = (req: IncomingMessage, res: ServerResponse) => {
    if (!decodableUrl(req.url)) {
      res.writeHead(400).end('Bad request.');
      return;
    }
    compress(req as never, res as never, () => withResponse(res, () => astroHandler(req, res)));
  };
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('X-Request-Id', String(req.headers[REQUEST_ID_HEADER]));
    applySecurityHeaders(res, { production });
    render(req, res);
  };
  const server = http.createServer((req, res) => {
    // Ours, never the client's: it names this request in the logs and on the crash page.
    req.headers[REQUEST_ID_HEADER] = nextRequestId();
    res.once('finish', () => closeIfBodyUnread(req));
    countWhileAnswered(res);
    countRequest?.(req);
    // From memory, with headers made once per file or page (they carry the security headers themselves).
    if (serveStatic?.(req, res) || pageCache?.serveFresh(req, res)) return;
    if (!pageCache) {
      answer(req, res);
      return;
    }
    pageCache.handle(req, res).then(
      (served) => served || answer(req, res),
      () => answer(req, res),
    );
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;
  return server;
}

// Request ids: a random prefix per process (drawn again when the counter wraps) and a counter, 12 hex
// digits in all; unique within a process, and across processes as unlikely to collide as random ones
// of that prefix's length. Random bytes for each request cost a tenth of a cached page's CPU.
const ID_COUNTER_LIMIT = 0x1000000;
let idPrefix = '';
let idCounter = ID_COUNTER_LIMIT;

export function nextRequestId(): string {
  if (idCounter >= ID_COUNTER_LIMIT) {
    idPrefix = randomBytes(3).toString('hex').toUpperCase();
    idCounter = 0;
  }
  return idPrefix + (idCounter++).toString(16).toUpperCase().padStart(6, '0');
}

/**
 * A request answered before its body ended (refused as too large, or answered without reading it):
 * Node reads and drops the rest so the connection can serve the next request, which for a large or
 * endless body is the very reading its limit refuses. So only the first MB is dropped (a small rest
 * keeps the connection); past it nothing more is read, and the connection closes once the sender had a
 * moment to read the answer (closing at once can reset the connection before it does).
 */
function closeIfBodyUnread(req: IncomingMessage): void {
  if (req.complete) return;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > UNREAD_BODY_DRAIN_BYTES) req.pause();
  });
  setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, UNREAD_BODY_LINGER_MS).unref();
}

/** Astro's handler cannot match a path it cannot decode: refused as its standalone server refused it. */
function decodableUrl(url = '/'): boolean {
  try {
    decodeURI(url);
    return true;
  } catch {
    return false;
  }
}

function isCompressible(req: IncomingMessage, res: ServerResponse): boolean {
  const type = String(res.getHeader('Content-Type') ?? '');
  // PDFs are already compressed, and downloads must stream byte for byte.
  if (type.startsWith('application/pdf')) return false;
  return compression.filter(req as never, res as never) || /^image\/svg\+xml/.test(type);
}

// A restart may begin while the previous process still holds the port on its way out.
const PORT_WAIT_MS = 10_000;

/** Listens on the port, waiting (bounded) for a stopping predecessor to let go of it. */
export async function listen(server: http.Server, port: number, host: string): Promise<void> {
  const deadline = Date.now() + PORT_WAIT_MS;
  for (;;) {
    try {
      await listenOnce(server, port, host);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function listenOnce(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
  });
}

/** Where this server can be reached on this machine (the host the page cache renders its pages for). */
export function loopbackOrigin(server: http.Server): string {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('Server is not listening on TCP');
  const host =
    address.address === '0.0.0.0'
      ? '127.0.0.1'
      : address.address === '::'
        ? '[::1]'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
  return `http://${host}:${address.port}`;
}
