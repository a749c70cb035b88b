import { z } from './zod.ts';
import { fieldErrors, type FieldErrors } from './validation.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import type { Result } from './result.ts';

/** The one error shape every JSON endpoint answers with. */
export interface ErrorBody {
  error: { code: string; message: MessageKey; fields?: FieldErrors; details?: Record<string, number | string> };
}

const NO_STORE = { 'Cache-Control': 'no-store' };

export function errorResponse(
  status: number,
  code: string,
  message: MessageKey,
  fields?: FieldErrors,
  details?: Record<string, number | string>,
): Response {
  const body: ErrorBody = { error: { code, message, ...(fields ? { fields } : {}), ...(details ? { details } : {}) } };
  return Response.json(body, { status, headers: NO_STORE });
}

/** A use case's result as HTTP: its value as JSON (shaped by `toBody`), or the refusal's status and error. */
export function resultResponse<T>(result: Result<T>, toBody: (value: T) => unknown, status = 200): Response {
  if (result.ok) return Response.json(toBody(result.value), { status, headers: NO_STORE });
  switch (result.error) {
    case 'not_found':
      return errorResponse(404, 'not_found', 'errors.notFound');
    case 'invalid':
      return errorResponse(400, result.code, result.message, result.fields);
    case 'conflict':
      return errorResponse(409, result.code, result.message, result.fields, result.details);
    case 'unavailable':
      return errorResponse(502, result.code, result.message);
  }
}

export const MAX_JSON_BODY_BYTES = 64 * 1024;
/** Deeper than any form sends; a hostile `[[[[…` must cost a 400, not a stack. */
export const MAX_JSON_DEPTH = 32;

/** Reads and validates a JSON body; any malformed, oversized or invalid body is a 400, never a 500. */
export async function readJson<T extends z.ZodType>(
  request: Request,
  schema: T,
): Promise<{ data: z.infer<T> } | { response: Response }> {
  if (!isJsonRequest(request)) return { response: errorResponse(415, 'unsupported_media_type', 'errors.badRequest') };
  const text = await request.text().catch(() => undefined);
  if (text === undefined || text.length > MAX_JSON_BODY_BYTES)
    return { response: errorResponse(413, 'body_too_large', 'errors.badRequest') };
  const raw = parseJsonText(text);
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
