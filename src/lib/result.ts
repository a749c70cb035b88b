import type { MessageKey } from '../i18n/i18n.ts';
import type { FieldErrors } from './validation.ts';

/**
 * What a use case returns when it can be refused: its value, or why not. One shape for every room,
 * mapped to HTTP in one place (`resultResponse` in src/lib/http.ts). Bugs still throw.
 */
export type Failure =
  /** Without a message: the generic "not found". */
  | { ok: false; error: 'not_found'; code?: string; message?: MessageKey }
  | { ok: false; error: 'invalid'; code: string; message: MessageKey; fields?: FieldErrors }
  | {
      ok: false;
      error: 'conflict';
      code: string;
      message: MessageKey;
      fields?: FieldErrors;
      details?: Record<string, number | string>;
    }
  | { ok: false; error: 'unavailable'; code: string; message: MessageKey; side: UnavailableSide };
/** `upstream`: another system failed its part (the payment provider, the mail server); `here`: this shop is not set up for it now. */
export type UnavailableSide = 'upstream' | 'here';
export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const notFound: Failure = { ok: false, error: 'not_found' };

/** Not found, said in words of its own (the course to check out is gone). */
export function notFoundAs(code: string, message: MessageKey): Failure {
  return { ok: false, error: 'not_found', code, message };
}

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

/** Another system (the payment provider, the mail server) could not do its part, or this shop cannot now (`here`). */
export function unavailable(code: string, message: MessageKey, side: UnavailableSide = 'upstream'): Failure {
  return { ok: false, error: 'unavailable', code, message, side };
}
