import { z } from './zod.ts';
import { fieldErrors, type FieldErrors } from './validation.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import type { Failure, Result } from './result.ts';

/** The one error shape every JSON endpoint answers with. */
export interface ErrorBody {
  error: { code: string; message: MessageKey; fields?: FieldErrors; details?: Record<string, number | string> };
}

/** How every JSON answer (and every private file or redirect) is marked: kept by no cache, shared or not. */
export const NO_STORE = { 'Cache-Control': 'private, no-store' } as const;

/**
 * A JSON answer no cache keeps: the one way endpoints answer with data. Its length is said, so the
 * server leaves a small answer uncompressed (without it, every answer got a compression stream).
 */
export function noStoreJson(body: unknown, status = 200): Response {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: { ...NO_STORE, 'Content-Type': 'application/json', 'Content-Length': String(bytes.byteLength) },
  });
}

export function errorResponse(
  status: number,
  code: string,
  message: MessageKey,
  fields?: FieldErrors,
  details?: Record<string, number | string>,
): Response {
  const body: ErrorBody = { error: { code, message, ...(fields ? { fields } : {}), ...(details ? { details } : {}) } };
  return noStoreJson(body, status);
}

/** A use case's result as HTTP: its value as JSON (shaped by `toBody`), or the refusal's status and error. */
export function resultResponse<T>(result: Result<T>, toBody: (value: T) => unknown, status = 200): Response {
  if (result.ok) return noStoreJson(toBody(result.value), status);
  return failureResponse(result);
}

/** The one mapping of a refusal to HTTP: its status, code and message (pages answering HTML use `failureStatus`). */
export function failureResponse(failure: Failure): Response {
  if (failure.error === 'not_found') return errorResponse(404, failure.code ?? 'not_found', failure.message ?? 'errors.notFound');
  const { code, message } = failure;
  if (failure.error === 'unavailable') return errorResponse(failureStatus(failure), code, message);
  return errorResponse(
    failureStatus(failure),
    code,
    message,
    failure.fields,
    failure.error === 'conflict' ? failure.details : undefined,
  );
}

export function failureStatus(failure: Failure): 400 | 404 | 409 | 502 | 503 {
  switch (failure.error) {
    case 'not_found':
      return 404;
    case 'invalid':
      return 400;
    case 'conflict':
      return 409;
    case 'unavailable':
      return failure.side === 'here' ? 503 : 502;
  }
}

export const MAX_JSON_BODY_BYTES = 64 * 1024;
/** Deeper than any form sends; a hostile `[[[[…` must cost a 400, not a stack. */
export const MAX_JSON_DEPTH = 32;

export type BodyRead<T> = T | { response: Response };

const bodyTooLarge = () => errorResponse(413, 'body_too_large', 'errors.badRequest');

/**
 * The one way a request body is read: at most `maxBytes`, refused on its declared Content-Length
 * before a byte is read, then counted as it arrives and no longer read past the limit (chunked, or
 * sent by a liar), so an oversized body never sits in memory. Too large is a 413 (`tooLarge` words
 * it for its endpoint), a broken stream a 400.
 */
export async function readBody(
  request: Request,
  maxBytes: number,
  tooLarge: () => Response = bodyTooLarge,
): Promise<BodyRead<{ bytes: Uint8Array<ArrayBuffer> }>> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return { response: tooLarge() };
  if (!request.body) return { bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        // Read no further. Not cancelled: that resets the connection at once, often before the
        // refusal is sent; the shop's server closes it soon after the refusal (http-server.ts).
        reader.releaseLock();
        return { response: tooLarge() };
      }
      chunks.push(value);
    }
  } catch {
    return { response: errorResponse(400, 'invalid_body', 'errors.badRequest') };
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes };
}

/** A request body of at most `maxBytes` as UTF-8 text (see readBody). */
export async function readText(request: Request, maxBytes: number): Promise<BodyRead<{ text: string }>> {
  const read = await readBody(request, maxBytes);
  return 'response' in read ? read : { text: new TextDecoder().decode(read.bytes) };
}

/** Reads and validates a JSON body; any malformed, oversized or invalid body is a 4xx, never a 500. */
export async function readJson<T extends z.ZodType>(
  request: Request,
  schema: T,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<BodyRead<{ data: z.infer<T> }>> {
  if (!isJsonRequest(request)) return { response: errorResponse(415, 'unsupported_media_type', 'errors.badRequest') };
  const read = await readText(request, maxBytes);
  if ('response' in read) return read;
  const raw = parseJsonText(read.text);
  if ('response' in raw) return raw;
  const parsed = schema.safeParse(raw.value);
  if (!parsed.success) return { response: invalidInput(parsed.error) };
  return { data: parsed.data };
}

export function isJsonRequest(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json');
}

/** A request body's JSON: malformed, nested deeper than MAX_JSON_DEPTH or holding U+0000 is a 400. */
export function parseJsonText(text: string): { value: unknown } | { response: Response } {
  if (nestingExceeds(text, MAX_JSON_DEPTH)) return { response: errorResponse(400, 'too_deep', 'errors.badRequest') };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { response: errorResponse(400, 'invalid_json', 'errors.badRequest') };
  }
  if (containsNul(value)) return { response: errorResponse(400, 'invalid_input', 'errors.badRequest') };
  return { value };
}

/** A 400 naming each bad field by its translation key. */
export function invalidInput(error: z.ZodError): Response {
  return errorResponse(400, 'invalid_input', 'errors.badRequest', fieldErrors(error));
}

/** A 429 with Retry-After: the wait is the header's, the words the message's. */
export function tooManyRequests(retryAfterS: number, message: MessageKey = 'errors.tooManyRequests'): Response {
  const response = errorResponse(429, 'too_many_requests', message, undefined, { retryAfterS });
  response.headers.set('Retry-After', String(retryAfterS));
  return response;
}

/** Brackets outside strings, counted without recursion, before JSON.parse and the walks after it. */
function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 92)
        index++; // backslash: skip the escaped character
      else if (char === 34) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 91 || char === 123) {
      if (++depth > max) return true;
    } else if (char === 93 || char === 125) depth--;
  }
  return false;
}

/** PostgreSQL refuses U+0000 in text: no request value containing it may reach a query. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  return false;
}
