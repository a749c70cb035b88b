import type { MessageKey } from '../../src/i18n/i18n.ts';

/**
 * The shop's own refusal of a request to better-auth's endpoints, before or instead of better-auth
 * answering; the route turns it into the API's error (a 429 with `Retry-After` when it has a wait).
 */
export interface AuthRefusal {
  status: number;
  code: string;
  message: MessageKey;
  retryAfterS?: number;
}

/** What a request to better-auth's endpoints comes to: better-auth's own answer, or the shop's refusal. */
export type AuthAnswer = { response: Response } | { refusal: AuthRefusal };

export const NOT_FOUND: AuthRefusal = { status: 404, code: 'not_found', message: 'errors.notFound' };

export function tooManyAttempts(retryAfterS: number, message: MessageKey = 'errors.tooManyRequests'): AuthRefusal {
  return { status: 429, code: 'too_many_requests', message, retryAfterS };
}
