import pino, { type DestinationStream } from 'pino';
import { logLevel } from './env.ts';

/** Stack lines kept per error: enough to find the throwing line, not a page of framework frames. */
const STACK_LINES = 8;
/** How deep `cause` chains are followed. */
const CAUSE_DEPTH = 3;

export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
}

/**
 * How every error reaches the log: its type, message, code, a short stack and its causes, and nothing else.
 * pino's default copies every enumerable property, so a `pg` error dropped by an idle connection logged
 * its whole client (kilobytes of internal state, the connection parameters included).
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error).slice(0, 500) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    ...(error.stack
      ? {
          stack: error.stack
            .split('\n')
            .slice(0, STACK_LINES + 1)
            .join('\n'),
        }
      : {}),
    ...(error.cause !== undefined && depth < CAUSE_DEPTH ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}

/** The logger's settings, given a destination in tests. */
export function createLog(destination?: DestinationStream) {
  const options = {
    level: logLevel(),
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    serializers: { err: serializeError, error: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The server's one logger: JSON lines (pipe through `npx pino-pretty` to read them as text), stack
 * traces kept here and never sent to a browser. A request's lines carry its `reqId`, the id the
 * crash page shows and the `X-Request-Id` header returns, so a report can be traced to its lines.
 */
export const log = createLog();

/** The header the HTTP server sets on each request (overwriting any a client sent) for pages to read. */
export const REQUEST_ID_HEADER = 'x-shop-request-id';

/** The id the HTTP server gave a request (see REQUEST_ID_HEADER). */
export function requestId(request: Request): string | undefined {
  return request.headers.get(REQUEST_ID_HEADER) ?? undefined;
}
