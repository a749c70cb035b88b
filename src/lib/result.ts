import type { MessageKey } from '../i18n/i18n.ts';
import type { FieldErrors } from './validation.ts';

/**
 * What a use case returns when it can be refused: its value, or why not. One shape for every room,
 * mapped to HTTP in one place (`resultResponse` in src/lib/http.ts). Bugs still throw.
 */
export type Failure =
  | { ok: false; error: 'not_found' }
  | { ok: false; error: 'invalid'; code: string; message: MessageKey; fields?: FieldErrors }
  | {
      ok: false;
      error: 'conflict';
      code: string;
      message: MessageKey;
      fields?: FieldErrors;
      details?: Record<string, number | string>;
    }
  | { ok: false; error: 'unavailable'; code: string; message: MessageKey };
export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const notFound: Failure = { ok: false, error: 'not_found' };

export function invalid(code: string, message: MessageKey, fields?: FieldErrors): Failure {
  return { ok: false, error: 'invalid', code, message, ...(fields ? { fields } : {}) };
}

export function conflict(
  code: string,
  message: MessageKey,
  extra: { fields?: FieldErrors; details?: Record<string, number | string> } = {},
): Failure {
  return { ok: false, error: 'conflict', code, message, ...extra };
}

/** Another system (the payment provider, the mail server) could not do its part. */
export function unavailable(code: string, message: MessageKey): Failure {
  return { ok: false, error: 'unavailable', code, message };
}
