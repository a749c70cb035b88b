import type { FieldErrors } from './field-errors.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import type { IslandMessages } from '../i18n/translate.ts';
import type { Language } from '../i18n/languages.ts';

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

/** What an account form's island takes from its page: its language, its strings, and its form's answer. */
export interface FormIslandProps {
  lang: Language;
  messages: IslandMessages;
  /** One of the page's forms as the server answered it, posted before this island hydrated. */
  posted?: PostedForm | undefined;
}
