import { POST as contactRoute } from '../pages/api/contact.ts';
import { apiAnswer } from '../lib/api-client.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { callEndpoint, keptValues, seeOther, type PageContext } from './form-post.ts';
import type { FormPostOutcome } from './auth-forms.ts';

const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;

/**
 * The contact form posted without JavaScript (decision 34): sent to /api/contact in-process, as the
 * form's script sends it; the page then says it was sent (303, so a reload sends nothing again) or
 * shows the form again with its errors and everything typed.
 */
export async function contactPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const values = keptValues(fields, CONTACT_FIELDS);
  const response = await callEndpoint(contactRoute, page, '/api/contact', { ...values, language: lang });
  const result = await apiAnswer(response);
  if (result.ok) return seeOther(`${localizedPath(lang, '/contact')}?sent=1#contact-form-title`);
  // Field errors speak for themselves; anything else is said above the button (as the script does).
  const failure = Object.keys(result.fields).length > 0 ? null : result.status === 400 ? result.message : 'contact.failed';
  return { posted: { form: 'contact', values, errors: result.fields, failure }, status: result.status };
}
