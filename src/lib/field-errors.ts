import type { z } from './zod.ts';
import type { MessageKey } from '../i18n/i18n.ts';

/** Field errors travel as translation keys; each side shows them in its own language. */
export type FieldErrors = Partial<Record<string, MessageKey>>;

/** A zod error's first message per field. No zod at run time: forms in the browser use it too. */
export function fieldErrors(error: Pick<z.ZodError, 'issues'>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= (issue.message.includes('.') ? issue.message : 'errors.badRequest') as MessageKey;
  }
  return errors;
}
