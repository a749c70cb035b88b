import { EventEmitter } from 'node:events';
import { IncomingMessage, type OutgoingHttpHeader, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { REQUEST_ID_HEADER } from '../log.ts';
import type { PageRenderer } from './page-cache.ts';
import { nextRequestId, type NodeHandler } from './http-server.ts';
import { withResponse } from './paced-body.ts';

/**
 * The page cache's renderer: Astro's handler called with a request and a response held in memory, as
 * an anonymous visitor on this machine would ask (GET, no cookie), instead of an HTTP request to the
 * server itself (a connection, headers written and parsed twice, a socket's buffers).
 */
export function inProcessRenderer(handler: NodeHandler, host: () => string): PageRenderer {
  return (pathWithQuery, headers) =>
    new Promise((resolve, reject) => {
      // What Astro reads of a connection: the client's address, whether it is TLS, close events.
      const socket = Object.assign(new EventEmitter(), { remoteAddress: '127.0.0.1', encrypted: false, destroy() {} });
      const req = new IncomingMessage(socket as unknown as Socket);
      req.method = 'GET';
      req.url = pathWithQuery;
      req.headers = { host: host(), ...headers, [REQUEST_ID_HEADER]: nextRequestId() };
      req.push(null);
      req.complete = true;
      const res = new ResponseInMemory(req);
      res.once('finish', () => resolve(res.toResponse()));
      res.once('error', reject);
      withResponse(res as unknown as ServerResponse, () =>
        handler(req, res as unknown as ServerResponse, (error) =>
          reject(error instanceof Error ? error : new Error(`Nothing rendered ${pathWithQuery}`)),
        ),
      );
    });
}

/** The part of a Node ServerResponse Astro's handler uses, collecting what it writes. */
class ResponseInMemory extends Writable {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  readonly #headers = new Map<string, OutgoingHttpHeader>();
  readonly #chunks: Buffer[] = [];
  readonly req: IncomingMessage;

  constructor(req: IncomingMessage) {
    super();
    this.req = req;
  }

  setHeader(name: string, value: OutgoingHttpHeader): this {
    this.#headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): OutgoingHttpHeader | undefined {
    return this.#headers.get(name.toLowerCase());
  }

  getHeaders(): Record<string, OutgoingHttpHeader> {
    return Object.fromEntries(this.#headers);
  }

  getHeaderNames(): string[] {
    return [...this.#headers.keys()];
  }

  hasHeader(name: string): boolean {
    return this.#headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.#headers.delete(name.toLowerCase());
  }

  writeHead(status: number, ...rest: unknown[]): this {
    this.statusCode = status;
    const headers = rest.find((arg) => arg && typeof arg === 'object');
    if (Array.isArray(headers)) {
      for (let n = 0; n + 1 < headers.length; n += 2) this.setHeader(String(headers[n]), String(headers[n + 1]));
    } else if (headers) {
      for (const [name, value] of Object.entries(headers as Record<string, OutgoingHttpHeader | undefined>))
        if (value !== undefined) this.setHeader(name, value);
    }
    this.headersSent = true;
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.headersSent = true;
    this.#chunks.push(chunk);
    callback();
  }

  toResponse(): Response {
    const headers = new Headers();
    for (const [name, value] of this.#headers) {
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const body = [204, 304].includes(this.statusCode) ? null : Buffer.concat(this.#chunks);
    return new Response(body, { status: this.statusCode, headers });
  }
}
