import type { ErrorBody } from './http.ts';
import type { FieldErrors } from './validation.ts';
import type { MessageKey } from '../i18n/i18n.ts';

export type ApiFailure = {
  ok: false;
  message: MessageKey;
  fields: FieldErrors;
  status: number;
  /** A refusal for too many requests says how long to wait (its Retry-After, in seconds). */
  retryAfterS?: number;
};
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

const STATUS_MESSAGES: Record<number, MessageKey> = {
  400: 'errors.badRequest',
  401: 'errors.unauthorized',
  403: 'errors.forbidden',
  404: 'errors.notFound',
  429: 'errors.tooManyRequests',
  500: 'errors.server',
};

/** JSON calls from islands: every failure becomes a translation key, never an exception. */
export function postJson<T>(url: string, body: unknown): Promise<ApiResult<T>> {
  return requestJson<T>('POST', url, body);
}

export async function requestJson<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    const init: RequestInit =
      body instanceof FormData
        ? { method, body }
        : body === undefined
          ? { method }
          : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    response = await fetch(url, init);
  } catch {
    return { ok: false, message: 'errors.network', fields: {}, status: 0 };
  }
  return apiAnswer<T>(response);
}

/** An endpoint's answer as an island sees it (pages taking a form posted without JavaScript read it the same way). */
export async function apiAnswer<T>(response: Response): Promise<ApiResult<T>> {
  const payload = (await response.json().catch(() => undefined)) as (T & Partial<ErrorBody>) | undefined;
  if (response.ok && payload) return { ok: true, data: payload };
  const retryAfterS = Number(response.headers.get('retry-after'));
  return {
    ok: false,
    ...(retryAfterS > 0 ? { retryAfterS } : {}),
    status: response.status,
    message:
      payload?.error?.message ??
      STATUS_MESSAGES[response.status] ??
      (response.status >= 500 ? 'errors.server' : 'errors.generic'),
    fields: payload?.error?.fields ?? {},
  };
}
