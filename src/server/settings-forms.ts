import QRCode from 'qrcode';
import { z } from '../lib/zod.ts';
import { changeEmailRequest, passwordChangeRequest, profileRequest } from '../lib/auth-client.ts';
import { apiAnswer } from '../lib/api-client.ts';
import {
  ChangePasswordSchema,
  ChangeEmailSchema,
  DeleteAccountSchema,
  PasskeyNameSchema,
  ProfileSchema,
  ReauthSchema,
  SetPasswordSchema,
  TotpCodeSchema,
} from '../lib/auth.schema.ts';
import { fieldErrors } from '../lib/field-errors.ts';
import { isUuid } from '../lib/uuid.ts';
import type { PostedForm } from '../lib/posted-form.ts';
import { qrDrawing, type TwoFactorStep } from '../lib/two-factor-step.ts';
import { backupCodesOf } from '../../functions/auth/backup-codes.ts';
import type { SessionUser } from '../../functions/auth/session.ts';
import { POST as setPasswordRoute } from '../pages/api/account/password.ts';
import { POST as deleteAccountRoute } from '../pages/api/account/delete.ts';
import { DELETE as signOutSessionRoute } from '../pages/api/account/sessions/[id].ts';
import { DELETE as removePasskeyRoute, PATCH as renamePasskeyRoute } from '../pages/api/account/passkeys/[id].ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { sentToAuth, type FormPostOutcome } from './auth-forms.ts';
import { callEndpoint, checkPosted, keptValues, seeOther, type PageContext } from './form-post.ts';

/**
 * Settings' forms posted without JavaScript (decision 34): each checked by its island's schema and
 * sent to the endpoint its island calls, in-process, then Settings again saying what was done
 * (`?saved=`), or the form again with its errors. Two-factor's set-up answers with its next step (the
 * QR code, then the backup codes) on the page. Adding a passkey runs a ceremony in the browser: it
 * says it needs JavaScript instead; renaming and removing one are forms like the others.
 */

/** What Settings says after a form posted without JavaScript went through (`?saved=`). */
export const SETTINGS_SAVED = {
  profile: 'settings.profileSaved',
  password: 'settings.passwordSaved',
  'password-set': 'settings.passwordSet',
  session: 'sessions.signedOutOne',
  sessions: 'sessions.signedOutOthers',
  'two-factor-off': 'twoFactor.disabled',
  'two-factor-on': 'twoFactor.enabled',
  codes: 'twoFactor.codesRenewed',
  'passkey-renamed': 'passkeys.renamed',
  'passkey-removed': 'passkeys.removed',
} as const satisfies Record<string, MessageKey>;

type Saved = keyof typeof SETTINGS_SAVED;

/** The `?saved=` of Settings' address, if it is one of ours. */
export function savedOf(value: string | null): MessageKey | undefined {
  return value && value in SETTINGS_SAVED ? SETTINGS_SAVED[value as Saved] : undefined;
}

const settingsPath = (lang: Language, saved: Saved) => `${localizedPath(lang, '/dashboard/settings')}?saved=${saved}`;

/**
 * Settings' answer to a post: the next page, or Settings again with a form's state, two-factor's next
 * step, and the cookies of a session the step renewed (a confirmed set-up replaces the session).
 */
export type SettingsOutcome = Response | SettingsAgain;
interface SettingsAgain {
  posted: PostedForm;
  status: number;
  twoFactor?: TwoFactorStep | undefined;
  cookies?: string[] | undefined;
}

type Handler = (page: PageContext, lang: Language, fields: Record<string, string>, user: SessionUser) => Promise<SettingsOutcome>;

/** Which of Settings' forms was posted (its hidden `form` field); anything else is read as the password form. */
const HANDLERS: Record<string, Handler> = {
  profile: profilePosted,
  'set-password': setPasswordPosted,
  'change-email': changeEmailPosted,
  'delete-account': deleteAccountPosted,
  sessions: sessionsPosted,
  'two-factor-manage': twoFactorManagePosted,
  'two-factor-setup': twoFactorSetUpPosted,
  'two-factor-confirm': twoFactorConfirmPosted,
  'passkey-add': needsScript('passkey-add', 'passkeys.needsJavaScript'),
  'passkey-rename': passkeyRenamePosted,
  'passkey-remove': passkeyRemovePosted,
};

export function settingsPosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
  user: SessionUser,
): Promise<SettingsOutcome> {
  return (HANDLERS[fields.form ?? ''] ?? passwordPosted)(page, lang, fields, user);
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

/** Two-factor, when on: new backup codes shown once, or turned off, each with the password (or a fresh sign-in). */
async function twoFactorManagePosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<SettingsOutcome> {
  const password = { password: fields.password || undefined };
  const outcome =
    fields.intent === 'disable'
      ? await sentToAuth(page, '/two-factor/disable', password, 'twoFactor.disableFailed', 'two-factor-manage', {}, (response) =>
          seeOther(settingsPath(lang, 'two-factor-off'), response),
        )
      : await sentToAuth(
          page,
          '/two-factor/generate-backup-codes',
          password,
          'twoFactor.enableFailed',
          'two-factor-manage',
          {},
          (_, data) =>
            stepShown('two-factor-manage', {
              kind: 'codes',
              codes: EnrolmentAnswer.shape.backupCodes.parse(data.backupCodes),
              fresh: false,
            }),
        );
  return failureAtPassword(outcome);
}

/** Better-auth's answer to starting two-factor: the authenticator's address and the backup codes. */
const EnrolmentAnswer = z.object({ totpURI: z.string(), backupCodes: z.array(z.string()) });
/** The authenticator's address the QR code step carries back with its first code. */
const AuthenticatorUri = z.string().max(1000).startsWith('otpauth://totp/');

/** Set-up started with the password (or a fresh sign-in): the QR code to scan is next. */
async function twoFactorSetUpPosted(
  page: PageContext,
  _lang: Language,
  fields: Record<string, string>,
): Promise<SettingsOutcome> {
  const checked = checkPosted(ReauthSchema, 'two-factor-setup', fields, []);
  if ('posted' in checked) return { ...checked, status: 400 };
  const outcome = await sentToAuth(
    page,
    '/two-factor/enable',
    { password: checked.data.password || undefined },
    'twoFactor.enableFailed',
    'two-factor-setup',
    {},
    (_, data) => {
      const { totpURI, backupCodes } = EnrolmentAnswer.parse(data);
      return stepShown('two-factor-setup', scanStep(totpURI, backupCodes));
    },
  );
  return failureAtPassword(outcome);
}

/**
 * The first code from the app: two-factor is on, the session is renewed (its cookie goes with the
 * page) and the backup codes are shown, once. A wrong code shows the QR code again with the error.
 */
async function twoFactorConfirmPosted(
  page: PageContext,
  _lang: Language,
  fields: Record<string, string>,
  user: SessionUser,
): Promise<SettingsOutcome> {
  const uri = AuthenticatorUri.safeParse(fields.uri);
  if (!uri.success)
    return { posted: { form: 'two-factor-confirm', values: {}, errors: {}, failure: 'errors.generic' }, status: 400 };
  const again = async () => scanStep(uri.data, (await backupCodesOf(user.id)) ?? []);
  const checked = checkPosted(TotpCodeSchema, 'two-factor-confirm', fields, []);
  if ('posted' in checked) return { ...checked, status: 400, twoFactor: await again() };
  const outcome = await sentToAuth(
    page,
    '/two-factor/verify-totp',
    checked.data,
    'twoFactor.codeWrong',
    'two-factor-confirm',
    {},
    (response) => response,
  );
  if (!(outcome instanceof Response)) {
    const errors = { code: outcome.posted.failure ?? 'twoFactor.codeWrong' };
    return { ...outcome, posted: { ...outcome.posted, failure: null, errors }, twoFactor: await again() };
  }
  const codes = (await backupCodesOf(user.id)) ?? [];
  return { ...stepShown('two-factor-confirm', { kind: 'codes', codes, fresh: true }), cookies: outcome.headers.getSetCookie() };
}

function scanStep(uri: string, codes: string[]): TwoFactorStep {
  return { kind: 'scan', uri, codes, qr: qrDrawing(QRCode.create(uri, { errorCorrectionLevel: 'M' }).modules) };
}

/** Settings again, showing two-factor's next step for the form that was posted. */
function stepShown(form: string, twoFactor: TwoFactorStep): SettingsAgain {
  return { posted: { form, values: {}, errors: {}, failure: null, done: true }, status: 200, twoFactor };
}

/** A wrong password is said at its field; anything else stays above the button (as the island does). */
function failureAtPassword(outcome: SettingsOutcome): SettingsOutcome {
  if (outcome instanceof Response || outcome.posted.failure !== 'settings.wrongCurrentPassword') return outcome;
  return { ...outcome, posted: { ...outcome.posted, errors: { password: outcome.posted.failure } } };
}

/**
 * One of the account's passkeys (`passkey`, its id) renamed: each passkey's form is its own (its
 * `form` in the answer names the passkey, as the island's form does).
 */
async function passkeyRenamePosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<SettingsOutcome> {
  const id = fields.passkey ?? '';
  const form = `passkey-rename-${id}`;
  if (!isUuid(id)) return { posted: { form, values: {}, errors: {}, failure: 'errors.notFound' }, status: 404 };
  const checked = checkPosted(PasskeyNameSchema, form, fields, ['name']);
  if ('posted' in checked) return { ...checked, status: 400 };
  const response = await callEndpoint(renamePasskeyRoute, page, `/api/account/passkeys/${id}`, checked.data, {
    method: 'PATCH',
    params: { id },
  });
  return answered(response, form, keptValues(fields, ['name']), () => seeOther(settingsPath(lang, 'passkey-renamed'), response));
}

/** One of the account's passkeys removed, with the password again (or a fresh sign-in). */
async function passkeyRemovePosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<SettingsOutcome> {
  const id = fields.passkey ?? '';
  const form = `passkey-remove-${id}`;
  if (!isUuid(id)) return { posted: { form, values: {}, errors: {}, failure: 'errors.notFound' }, status: 404 };
  const response = await callEndpoint(
    removePasskeyRoute,
    page,
    `/api/account/passkeys/${id}`,
    { password: fields.password || undefined },
    { method: 'DELETE', params: { id } },
  );
  return failureAtPassword(await answered(response, form, {}, () => seeOther(settingsPath(lang, 'passkey-removed'), response)));
}

/** A form only its script can finish (a passkey's ceremony), sent before the script ran: shown again saying so, nothing done. */
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
