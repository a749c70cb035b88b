import { z } from './zod.ts';
import { LANGUAGES } from '../i18n/languages.ts';

/** Text from a form: PostgreSQL refuses NUL in text, so it never reaches a query. */
export const text = (message: string) => z.string(message).overwrite((value) => value.replaceAll('\u0000', ''));

/** An interface language, as forms and endpoints receive it. */
export const LanguageSchema = z.enum(LANGUAGES, 'errors.badRequest');
export { fieldErrors, type FieldErrors } from './field-errors.ts';

export const EmailSchema = z.string().trim().max(320, 'validation.tooLong').pipe(z.email('validation.emailInvalid'));
