import { z } from './zod.ts';
import { LANGUAGES } from '../i18n/languages.ts';

/** An interface language, as forms and endpoints receive it. */
export const LanguageSchema = z.enum(LANGUAGES, 'errors.badRequest');
import type { MessageKey } from '../i18n/i18n.ts';

/** Field errors travel as translation keys; each side shows them in its own language. */
export type FieldErrors = Partial<Record<string, MessageKey>>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= (issue.message.includes('.') ? issue.message : 'errors.badRequest') as MessageKey;
  }
  return errors;
}

export const EmailSchema = z.string().trim().max(320, 'validation.tooLong').pipe(z.email('validation.emailInvalid'));
