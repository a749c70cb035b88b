import { changeEmailRequest, passwordChangeRequest, profileRequest } from '../lib/auth-client.ts';
import { apiAnswer } from '../lib/api-client.ts';
import {
  ChangePasswordSchema,
  ChangeEmailSchema,
  DeleteAccountSchema,
  ProfileSchema,
  SetPasswordSchema,
} from '../lib/auth.schema.ts';
import { fieldErrors } from '../lib/field-errors.ts';
import { isUuid } from '../lib/uuid.ts';
import { POST as setPasswordRoute } from '../pages/api/account/password.ts';
import { POST as deleteAccountRoute } from '../pages/api/account/delete.ts';
import { DELETE as signOutSessionRoute } from '../pages/api/account/sessions/[id].ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { sentToAuth, type FormPostOutcome } from './auth-forms.ts';
import { callEndpoint, checkPosted, keptValues, seeOther, type PageContext } from './form-post.ts';

/**
 * Settings' forms posted without JavaScript (decision 34): each checked by its island's schema and
 * sent to the endpoint its island calls, in-process, then Settings again saying what was done
 * (`?saved=`), or the form again with its errors. Adding a passkey and setting up two-factor show
 * secrets or run a ceremony in the browser: they say they need JavaScript instead.
 */

/** What Settings says after a form posted without JavaScript went through (`?saved=`). */
export const SETTINGS_SAVED = {
  profile: 'settings.profileSaved',
  password: 'settings.passwordSaved',
  'password-set': 'settings.passwordSet',
  session: 'sessions.signedOutOne',
  sessions: 'sessions.signedOutOthers',
  'two-factor-off': 'twoFactor.disabled',
} as const satisfies Record<string, MessageKey>;

type Saved = keyof typeof SETTINGS_SAVED;

/** The `?saved=` of Settings' address, if it is one of ours. */
export function savedOf(value: string | null): MessageKey | undefined {
  return value && value in SETTINGS_SAVED ? SETTINGS_SAVED[value as Saved] : undefined;
}

const settingsPath = (lang: Language, saved: Saved) => `${localizedPath(lang, '/dashboard/settings')}?saved=${saved}`;

type Handler = (page: PageContext, lang: Language, fields: Record<string, string>) => Promise<FormPostOutcome>;

/** Which of Settings' forms was posted (its hidden `form` field); anything else is read as the password form. */
const HANDLERS: Record<string, Handler> = {
  profile: profilePosted,
  'set-password': setPasswordPosted,
  'change-email': changeEmailPosted,
  'delete-account': deleteAccountPosted,
  sessions: sessionsPosted,
  'two-factor-manage': twoFactorManagePosted,
  'two-factor-setup': needsScript('two-factor-setup', 'twoFactor.needsJavaScript'),
  'passkey-add': needsScript('passkey-add', 'passkeys.needsJavaScript'),
};

export function settingsPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  return (HANDLERS[fields.form ?? ''] ?? passwordPosted)(page, lang, fields);
}

/** The profile (name and language): Settings again, in the language chosen. */
async function profilePosted(page: PageContext, _lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const checked = checkPosted(ProfileSchema, 'profile', fields, ['fullName', 'language']);
  if ('posted' in checked) return { ...checked, status: 400 };
  const { fullName, language } = checked.data;
  const outcome = await sentToAuth(
    page,
    '/update-user',
    profileRequest(fullName, language),
    'settings.profileFailed',
    'profile',
    keptValues(fields, ['fullName', 'language']),
    (response) => seeOther(settingsPath(language, 'profile'), response),
  );
  return outcome instanceof Response ? outcome : { ...outcome, posted: { ...outcome.posted, failure: 'settings.profileFailed' } };
}

/** A new password with the current one: the other sessions end, this one is renewed. */
async function passwordPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const checked = checkPosted(ChangePasswordSchema, 'password', fields, []);
  if ('posted' in checked) return { ...checked, status: 400 };
  const outcome = await sentToAuth(
    page,
    '/change-password',
    passwordChangeRequest(checked.data.currentPassword, checked.data.newPassword),
    'settings.passwordFailed',
    'password',
    {},
    (response) => seeOther(settingsPath(lang, 'password'), response),
  );
  if (outcome instanceof Response) return outcome;
  // A wrong current password is said at that field; anything else above the button (as the island does).
  const failure = outcome.posted.failure;
  return failure === 'settings.wrongCurrentPassword'
    ? { ...outcome, posted: { ...outcome.posted, errors: { currentPassword: failure } } }
    : { ...outcome, posted: { ...outcome.posted, failure: 'settings.passwordFailed' } };
}

/** A first password, for an account that has signed in only by link, passkey or OpenID. */
async function setPasswordPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const checked = checkPosted(SetPasswordSchema, 'set-password', fields, []);
  if ('posted' in checked) return { ...checked, status: 400 };
  const response = await callEndpoint(setPasswordRoute, page, '/api/account/password', { newPassword: checked.data.newPassword });
  return answered(response, 'set-password', {}, () => seeOther(settingsPath(lang, 'password-set'), response));
}

/** A new address: a confirmation mail goes to it, and Settings says so where the form is. */
async function changeEmailPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const checked = checkPosted(ChangeEmailSchema, 'change-email', fields, ['newEmail']);
  if ('posted' in checked) return { ...checked, status: 400 };
  const values = keptValues(fields, ['newEmail']);
  return sentToAuth(
    page,
    '/change-email',
    changeEmailRequest(checked.data.newEmail, `${localizedPath(lang, '/dashboard/settings')}?email=changed`),
    'settings.emailFailed',
    'change-email',
    values,
    () => ({ posted: { form: 'change-email', values, errors: {}, failure: null, done: true }, status: 200 }),
  );
}

/** The account goes, after its password (or a fresh sign-in) and an explicit yes: the home page next. */
async function deleteAccountPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  // The box is sent as "on" when ticked, and not at all otherwise.
  const parsed = DeleteAccountSchema.safeParse({ password: fields.password ?? '', confirm: fields.confirm === 'on' });
  if (!parsed.success)
    return { posted: { form: 'delete-account', values: {}, errors: fieldErrors(parsed.error), failure: null }, status: 400 };
  const response = await callEndpoint(deleteAccountRoute, page, '/api/account/delete', parsed.data);
  return answered(response, 'delete-account', {}, () => seeOther(localizedPath(lang, '/'), response));
}

/**
 * The devices signed in: one of them (`session`, its id), the others (`intent=others`) or every one,
 * this one too (`intent=all`: the sign-in page next).
 */
async function sessionsPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const session = fields.session ?? '';
  if (session) {
    const response = isUuid(session)
      ? await callEndpoint(
          signOutSessionRoute,
          page,
          `/api/account/sessions/${session}`,
          {},
          {
            method: 'DELETE',
            params: { id: session },
          },
        )
      : undefined;
    if (!response) return { posted: { form: 'sessions', values: {}, errors: {}, failure: 'errors.notFound' }, status: 404 };
    return answered(response, 'sessions', {}, () => seeOther(settingsPath(lang, 'session'), response));
  }
  const everywhere = fields.intent === 'all';
  return sentToAuth(
    page,
    everywhere ? '/revoke-sessions' : '/revoke-other-sessions',
    {},
    'errors.generic',
    'sessions',
    {},
    (response) => seeOther(everywhere ? localizedPath(lang, '/login') : settingsPath(lang, 'sessions'), response),
  );
}

/**
 * Two-factor, when on: turned off with the password (or a fresh sign-in). New backup codes are shown
 * once, by the island: without JavaScript the form says so.
 */
async function twoFactorManagePosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<FormPostOutcome> {
  if (fields.intent !== 'disable')
    return {
      posted: { form: 'two-factor-manage', values: {}, errors: {}, failure: 'twoFactor.codesNeedJavaScript' },
      status: 400,
    };
  const outcome = await sentToAuth(
    page,
    '/two-factor/disable',
    { password: fields.password || undefined },
    'twoFactor.disableFailed',
    'two-factor-manage',
    {},
    (response) => seeOther(settingsPath(lang, 'two-factor-off'), response),
  );
  if (outcome instanceof Response || outcome.posted.failure !== 'settings.wrongCurrentPassword') return outcome;
  return { ...outcome, posted: { ...outcome.posted, errors: { password: outcome.posted.failure } } };
}

/**
 * A form only its script can finish (a passkey's ceremony, two-factor's QR code and codes), sent
 * before the script ran: shown again saying so, nothing done.
 */
function needsScript(form: string, failure: MessageKey): Handler {
  return () => Promise.resolve({ posted: { form, values: {}, errors: {}, failure }, status: 400 });
}

/** One of the shop's own account endpoints' answers: `next` on success, else the form again with its failure. */
async function answered(
  response: Response,
  form: string,
  values: Record<string, string>,
  next: () => Response,
): Promise<FormPostOutcome> {
  const result = await apiAnswer(response);
  if (result.ok) return next();
  return { posted: { form, values, errors: result.fields, failure: result.message }, status: result.status };
}
