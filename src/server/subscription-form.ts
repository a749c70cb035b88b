import { CONSENT_WORDINGS, wordingOf } from '../../functions/audience/consent.ts';
import { subscriberOfToken } from '../../functions/audience/links.ts';
import { savePreferences, unsubscribe } from '../../functions/audience/preferences.ts';
import { resubscribe } from '../../functions/audience/subscribe.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { PreferencesFormSchema } from '../lib/audience.schema.ts';
import type { PostedForm } from '../lib/posted-form.ts';
import { clientIp } from './client-ip.ts';
import { seeOther, type PageContext } from './form-post.ts';

/** Where the preferences page says what was done: `saved`, `left` or `rejoined` (a confirmation mail went out). */
export type PreferencesDone = 'saved' | 'left' | 'rejoined';

/**
 * The preferences page's forms, posted to the page (no script needed): save the languages and
 * topics, leave everything (recorded as a withdrawal from the preferences page), or ask to come
 * back (a new double opt-in). Answered with the page again, saying what was done (303), or with the
 * form's errors.
 */
export async function preferencesPosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<Response | { posted: PostedForm; status: number }> {
  const form = PreferencesFormSchema.safeParse(fields);
  const subscriberId = form.success ? subscriberOfToken(form.data.token) : undefined;
  if (!form.success || !subscriberId)
    return { posted: { form: 'preferences', values: {}, errors: {}, failure: 'audience.prefs.invalid' }, status: 400 };
  const path = localizedPath(lang, '/subscription');
  const done = (what: PreferencesDone) => seeOther(`${path}?token=${encodeURIComponent(form.data.token)}&done=${what}`);
  const context = { language: lang, page: path, clientIp: clientIp(page.request, page.clientAddress) };
  if (form.data.choice === 'leave') {
    await unsubscribe(subscriberId, wordingOf(CONSENT_WORDINGS.leave, lang), { ...context, source: 'preferences' });
    return done('left');
  }
  if (form.data.choice === 'rejoin') {
    await resubscribe(subscriberId, { ...context, source: 'preferences' });
    return done('rejoined');
  }
  const saved = await savePreferences(subscriberId, form.data);
  if (saved.ok) return done('saved');
  const errors = saved.error === 'invalid' ? (saved.fields ?? {}) : {};
  const values = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== 'token'));
  return {
    posted: { form: 'preferences', values, errors, failure: saved.error === 'invalid' ? saved.message : 'errors.notFound' },
    status: 400,
  };
}
