import pino from 'pino';

/**
 * The server's one logger: JSON lines (pipe through `npx pino-pretty` to read them as text), stack
 * traces kept here and never sent to a browser. A request's lines carry its `reqId`, the id the
 * crash page shows and the `X-Request-Id` header returns, so a report can be traced to its lines.
 */
export const log = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
  base: null,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});

/** The header the HTTP server sets on each request (overwriting any a client sent) for pages to read. */
export const REQUEST_ID_HEADER = 'x-shop-request-id';

/** The id the HTTP server gave a request (see REQUEST_ID_HEADER). */
export function requestId(request: Request): string | undefined {
  return request.headers.get(REQUEST_ID_HEADER) ?? undefined;
}
