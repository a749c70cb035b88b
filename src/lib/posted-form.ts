import type { FieldErrors } from './field-errors.ts';
import type { MessageKey } from '../i18n/i18n.ts';

/**
 * A form the browser posted to its page itself (JavaScript off, or the island not hydrated yet) and
 * the server refused or answered on the page: the island renders it as it would have after its own
 * request (decision 34). Never holds a password.
 */
export interface PostedForm {
  /** Which of the page's forms was sent: its hidden `form` field, the form's id prefix. */
  form: string;
  /** The fields as typed, passwords left out. */
  values: Record<string, string>;
  errors: FieldErrors;
  failure: MessageKey | null;
  /** The request went through and the page says so where it stays (a link was sent). */
  done?: boolean;
}
