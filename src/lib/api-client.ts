import type { ErrorBody } from './http.ts';
import type { FieldErrors } from './validation.ts';
import type { MessageKey } from '../i18n/i18n.ts';

export type ApiResult<T> = { ok: true; data: T } | { ok: false; message: MessageKey; fields: FieldErrors; status: number };

const STATUS_MESSAGES: Record<number, MessageKey> = { 400: 'errors.badRequest', 429: 'errors.tooManyRequests', 500: 'errors.server' };

/** JSON calls from islands: every failure becomes a translation key, never an exception. */
export async function postJson<T>(url: string, body: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, message: 'errors.network', fields: {}, status: 0 };
  }
  const payload = (await response.json().catch(() => undefined)) as (T & Partial<ErrorBody>) | undefined;
  if (response.ok && payload) return { ok: true, data: payload };
  return {
    ok: false,
    status: response.status,
    message: payload?.error?.message ?? STATUS_MESSAGES[response.status] ?? (response.status >= 500 ? 'errors.server' : 'errors.generic'),
    fields: payload?.error?.fields ?? {},
  };
}
