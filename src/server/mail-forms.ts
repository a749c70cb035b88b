import { POST as createRoute } from '../pages/api/admin/broadcasts/index.ts';
import { PUT as updateRoute } from '../pages/api/admin/broadcasts/[id]/index.ts';
import { POST as sendRoute } from '../pages/api/admin/broadcasts/[id]/send.ts';
import { POST as stateRoute } from '../pages/api/admin/broadcasts/[id]/state.ts';
import { POST as testRoute } from '../pages/api/admin/broadcasts/[id]/test.ts';
import { PUT as settingsRoute } from '../pages/api/admin/audience-settings.ts';
import { audienceSettings, defaultTexts } from '../../functions/audience/settings.ts';
import { apiAnswer, type ApiResult } from '../lib/api-client.ts';
import {
  AUTOMATIC_MAILS,
  broadcastFromForm,
  automationFromForm,
  sendAtFromForm,
  type AutomaticMail,
} from '../lib/admin/mail.schema.ts';
import { LANGUAGES, localizedPath, type Language } from '../i18n/languages.ts';
import { callEndpoint, seeOther, type PageContext } from './form-post.ts';
import type { FormPostOutcome } from './auth-forms.ts';

/**
 * Admin → Mail's forms, posted to their page (decision 34: no script needed): each goes through the
 * very endpoint an island would call, in-process, and the page answers with itself again (303),
 * saying what was done, or with the form's errors and what was typed.
 */
const BROADCAST_FIELDS = ['id', 'subject', 'body', 'language', 'segment', 'audienceLanguage', 'topic', 'sendAt'] as const;
const INTENTS = ['save', 'test', 'send', 'schedule'] as const;
type Intent = (typeof INTENTS)[number];

const refused = (form: string, values: Record<string, string>, result: ApiResult<unknown> & { ok: false }): FormPostOutcome => ({
  posted: {
    form,
    values,
    errors: result.fields,
    // Said above the form too: the automatic mails' nested fields have no control of their own to show it at.
    failure: Object.values(result.fields)[0] ?? result.message,
  },
  status: result.status,
});

/** The composer: save the draft, then (by the button pressed) send a test, send now or schedule. */
export async function broadcastPosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<FormPostOutcome> {
  const values = Object.fromEntries(
    Object.entries(fields).filter(
      ([name]) => (BROADCAST_FIELDS as readonly string[]).includes(name) || name.startsWith('course-'),
    ),
  );
  const intent: Intent = INTENTS.find((candidate) => candidate === fields.intent) ?? 'save';
  const sendAt = sendAtFromForm(fields.sendAt);
  if (intent === 'schedule' && (!sendAt || sendAt === 'invalid'))
    return { posted: { form: 'broadcast', values, errors: { sendAt: 'admin.mail.sendAtInvalid' }, failure: null }, status: 400 };
  const id = fields.id ?? '';
  const saved = await apiAnswer<{ broadcast: { id: string } }>(
    id
      ? await callEndpoint(updateRoute, page, `/api/admin/broadcasts/${id}`, broadcastFromForm(fields), {
          method: 'PUT',
          params: { id },
        })
      : await callEndpoint(createRoute, page, '/api/admin/broadcasts', broadcastFromForm(fields)),
  );
  if (!saved.ok) return refused('broadcast', values, saved);
  const savedId = saved.data.broadcast.id;
  const next = (done: string) => seeOther(`${localizedPath(lang, '/admin/mail')}?id=${savedId}&done=${done}`);
  if (intent === 'save') return next('saved');
  const [route, path, body] =
    intent === 'test'
      ? ([testRoute, 'test', {}] as const)
      : ([sendRoute, 'send', intent === 'schedule' ? { at: sendAt } : {}] as const);
  const answer = await apiAnswer(
    await callEndpoint(route, page, `/api/admin/broadcasts/${savedId}/${path}`, body, { params: { id: savedId } }),
  );
  if (!answer.ok) return refused('broadcast', { ...values, id: savedId }, answer);
  return next(intent === 'test' ? 'tested' : intent === 'send' ? 'sending' : 'scheduled');
}

/** Pause, resume or cancel one broadcast (its row's buttons). */
export async function broadcastStatePosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<FormPostOutcome> {
  const id = fields.id ?? '';
  const answer = await apiAnswer(
    await callEndpoint(stateRoute, page, `/api/admin/broadcasts/${id}/state`, { action: fields.action }, { params: { id } }),
  );
  if (!answer.ok) return refused('state', {}, answer);
  return seeOther(`${localizedPath(lang, '/admin/mail')}?done=${encodeURIComponent(fields.action ?? '')}`);
}

/** Words left as the locale's default are stored as '' (the default), so a better translation later reaches them. */
function ownWords(kind: AutomaticMail, automation: ReturnType<typeof automationFromForm>): ReturnType<typeof automationFromForm> {
  const texts = Object.fromEntries(
    LANGUAGES.map((language) => {
      const typed = automation.texts[language];
      const defaults = defaultTexts(kind, language);
      const own = (field: 'subject' | 'body') => (typed[field].trim() === defaults[field].trim() ? '' : typed[field]);
      return [language, { subject: own('subject'), body: own('body') }];
    }),
  ) as typeof automation.texts;
  return { ...automation, texts };
}

/**
 * The automatic mails page's forms: the sending rate, or one automatic mail (on or off, its words per
 * language, and for the review request its days), merged into the stored settings and saved whole.
 */
export async function audienceSettingsPosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<FormPostOutcome> {
  const current = await audienceSettings();
  const kind = AUTOMATIC_MAILS.find((candidate) => fields.form === `automatic-${candidate}`);
  const changed = kind
    ? {
        ...current,
        ...(kind === 'review-request' ? { reviewAfterDays: fields.reviewAfterDays } : {}),
        automatic: { ...current.automatic, [kind]: ownWords(kind, automationFromForm(fields)) } satisfies Record<
          AutomaticMail,
          unknown
        >,
      }
    : { ...current, ratePerMinute: fields.ratePerMinute };
  const answer = await apiAnswer(
    await callEndpoint(settingsRoute, page, '/api/admin/audience-settings', changed, { method: 'PUT' }),
  );
  const form = fields.form ?? 'rate';
  if (!answer.ok) return refused(form, fields, answer);
  return seeOther(`${localizedPath(lang, '/admin/mail/automatic')}?done=${encodeURIComponent(form)}#${encodeURIComponent(form)}`);
}
