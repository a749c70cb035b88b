import { z } from 'zod';
import { fieldErrors, type FieldErrors } from './validation.ts';
import type { MessageKey } from '../i18n/i18n.ts';

/** The one error shape every JSON endpoint answers with. */
export interface ErrorBody {
  error: { code: string; message: MessageKey; fields?: FieldErrors };
}

export function errorResponse(status: number, code: string, message: MessageKey, fields?: FieldErrors): Response {
  const body: ErrorBody = { error: { code, message, ...(fields ? { fields } : {}) } };
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

export const MAX_JSON_BODY_BYTES = 64 * 1024;

/** Reads and validates a JSON body; any malformed, oversized or invalid body is a 400, never a 500. */
export async function readJson<T extends z.ZodType>(
  request: Request,
  schema: T,
): Promise<{ data: z.infer<T> } | { response: Response }> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return { response: errorResponse(415, 'unsupported_media_type', 'errors.badRequest') };
  }
  const text = await request.text().catch(() => undefined);
  if (text === undefined || text.length > MAX_JSON_BODY_BYTES)
    return { response: errorResponse(413, 'body_too_large', 'errors.badRequest') };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { response: errorResponse(400, 'invalid_json', 'errors.badRequest') };
  }
  if (containsNul(raw)) return { response: errorResponse(400, 'invalid_input', 'errors.badRequest') };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { response: errorResponse(400, 'invalid_input', 'errors.badRequest', fieldErrors(parsed.error)) };
  return { data: parsed.data };
}

/** PostgreSQL refuses U+0000 in text: no request value containing it may reach a query. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  return false;
}
