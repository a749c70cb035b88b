import { POST as subscribeRoute } from '../pages/api/audience/subscribe.ts';
import { apiAnswer } from '../lib/api-client.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { callEndpoint, keptValues, seeOther, type PageContext } from './form-post.ts';
import type { FormPostOutcome } from './auth-forms.ts';

const SUBSCRIBE_FIELDS = ['email', 'source', 'page'] as const;

/**
 * A sign-up form posted (decision 34): every one of them (footer, article, course page) posts to
 * /[lang]/subscribe, which sends it to /api/audience/subscribe in-process. The answer is that page
 * saying to check the inbox (303, so a reload sends nothing again), or the form again with its error
 * and the address typed.
 */
export async function subscribePosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<FormPostOutcome> {
  const values = keptValues(fields, SUBSCRIBE_FIELDS);
  const response = await callEndpoint(subscribeRoute, page, '/api/audience/subscribe', { ...values, language: lang });
  const result = await apiAnswer(response);
  if (result.ok) return seeOther(`${localizedPath(lang, '/subscribe')}?sent=1`);
  const failure = Object.keys(result.fields).length > 0 ? null : result.status === 400 ? result.message : 'audience.failed';
  return { posted: { form: 'subscribe', values, errors: result.fields, failure }, status: result.status };
}
