import { ALL as authRoute } from '../pages/api/auth/[...all].ts';
import { authAnswer, signInLinkRequest, signUpRequest } from '../lib/auth-client.ts';
import {
  BackupCodeSchema,
  ForgotPasswordSchema,
  LoginSchema,
  ResetPasswordSchema,
  SignInLinkSchema,
  SignupSchema,
  TotpCodeSchema,
} from '../lib/auth.schema.ts';
import { POST as passwordResetRoute } from '../pages/api/password-reset.ts';
import { apiAnswer } from '../lib/api-client.ts';
import { sessionTokenIn } from '../../functions/auth/cookies.ts';
import { safeNextPath } from '../lib/next-path.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import type { PostedForm } from '../lib/posted-form.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { callEndpoint, checkPosted, keptValues, seeOther, type PageContext } from './form-post.ts';

/**
 * The account forms posted to their pages without JavaScript (decision 34): each checked by its
 * island's schema and sent to the same /api/auth endpoint the island calls, in-process. The page
 * reads the body (`readFormPost`) and gets a Response to return (the next page) or the form to show
 * again with the status to answer it with.
 */
export type FormPostOutcome = Response | { posted: PostedForm; status: number };

/** Where a sign-in goes next: the page's `next`, a same-site path, or the dashboard. */
const nextPathOf = (page: PageContext, lang: Language) =>
  safeNextPath(page.url.searchParams.get('next'), localizedPath(lang, '/dashboard'));

/** The endpoint's answer: the next page on success, else the form again with its failure. */
export async function sentToAuth<Next extends FormPostOutcome>(
  page: PageContext,
  path: string,
  body: unknown,
  fallback: MessageKey,
  form: string,
  values: Record<string, string>,
  onSuccess: (response: Response, data: Record<string, unknown>) => Next,
): Promise<Next | { posted: PostedForm; status: number }> {
  const response = await callEndpoint(authRoute, page, `/api/auth${path}`, body);
  const result = await authAnswer<Record<string, unknown>>(response, fallback);
  if (result.ok) return onSuccess(response, result.data);
  return { posted: { form, values, errors: result.fields, failure: result.message }, status: result.status };
}

/** The login page: the password form (`login`) or the sign-in link form (`sign-in-link`). */
export async function signInPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const next = nextPathOf(page, lang);
  if (fields.form === 'sign-in-link') {
    const checked = checkPosted(SignInLinkSchema, 'sign-in-link', fields, ['email']);
    if ('posted' in checked) return { ...checked, status: 400 };
    const values = keptValues(fields, ['email']);
    return sentToAuth(
      page,
      '/sign-in/magic-link',
      signInLinkRequest(checked.data.email, next, lang),
      'auth.linkFailed',
      'sign-in-link',
      values,
      () => ({ posted: { form: 'sign-in-link', values, errors: {}, failure: null, done: true }, status: 200 }),
    );
  }
  const checked = checkPosted(LoginSchema, 'login', fields, ['email']);
  if ('posted' in checked) return { ...checked, status: 400 };
  return sentToAuth(
    page,
    '/sign-in/email',
    checked.data,
    'auth.loginError',
    'login',
    keptValues(fields, ['email']),
    (response, data) =>
      // Two-factor on: the password was right; the code comes next, then the same destination.
      data.twoFactorRedirect
        ? seeOther(`${localizedPath(lang, '/two-factor')}?next=${encodeURIComponent(next)}`, response)
        : seeOther(next, response),
  );
}

/** The sign-up page: a new account is signed in and sent to its dashboard; a taken address hears the same "check your mail". */
export async function signUpPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const kept = ['fullName', 'email'];
  const checked = checkPosted(SignupSchema, 'signup', fields, kept);
  if ('posted' in checked) return { ...checked, status: 400 };
  const { fullName, email, password } = checked.data;
  const values = keptValues(fields, kept);
  return sentToAuth(
    page,
    '/sign-up/email',
    signUpRequest(fullName, email, password, lang),
    'auth.signupError',
    'signup',
    values,
    (response) =>
      sessionTokenIn(response.headers.getSetCookie())
        ? seeOther(localizedPath(lang, '/dashboard'), response)
        : { posted: { form: 'signup', values, errors: {}, failure: null, done: true }, status: 200 },
  );
}

/** The forgot-password page: the reset link is mailed, and the page says so. */
export async function forgotPasswordPosted(page: PageContext, fields: Record<string, string>): Promise<FormPostOutcome> {
  const checked = checkPosted(ForgotPasswordSchema, 'forgot', fields, ['email']);
  if ('posted' in checked) return { ...checked, status: 400 };
  const values = keptValues(fields, ['email']);
  return sentToAuth(page, '/request-password-reset', checked.data, 'auth.resetEmailFailed', 'forgot', values, () => ({
    posted: { form: 'forgot', values, errors: {}, failure: null, done: true },
    status: 200,
  }));
}

/**
 * The two-factor page: an authenticator code (`two-factor-code`) or a backup code
 * (`two-factor-backup`), then the page's `next`. A code is never shown again.
 */
export async function secondFactorPosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<FormPostOutcome> {
  const backup = fields.form === 'two-factor-backup';
  const form = backup ? 'two-factor-backup' : 'two-factor-code';
  const checked = checkPosted(backup ? BackupCodeSchema : TotpCodeSchema, form, fields, []);
  if ('posted' in checked) return { ...checked, status: 400 };
  const path = backup ? '/two-factor/verify-backup-code' : '/two-factor/verify-totp';
  const outcome = await sentToAuth(
    page,
    path,
    checked.data,
    backup ? 'twoFactor.backupCodeWrong' : 'twoFactor.codeWrong',
    form,
    {},
    (response) => seeOther(nextPathOf(page, lang), response),
  );
  if (outcome instanceof Response || !outcome.posted.failure || outcome.posted.failure === 'twoFactor.challengeExpired')
    return outcome;
  // A wrong code is said at the field too, as the island says it.
  return { ...outcome, posted: { ...outcome.posted, errors: { code: outcome.posted.failure } } };
}

/** The reset-password page (its link's token in the address): the new password, then signed in. */
export async function passwordResetPosted(
  page: PageContext,
  lang: Language,
  fields: Record<string, string>,
): Promise<FormPostOutcome> {
  const checked = checkPosted(ResetPasswordSchema, 'reset', fields, []);
  if ('posted' in checked) return { ...checked, status: 400 };
  const token = page.url.searchParams.get('token') ?? '';
  const response = await callEndpoint(passwordResetRoute, page, '/api/password-reset', { ...checked.data, token });
  const result = await apiAnswer<{ twoFactor: boolean }>(response);
  if (!result.ok) {
    const failure = result.status === 400 ? 'reset.failed' : result.message;
    return { posted: { form: 'reset', values: {}, errors: result.fields, failure }, status: result.status };
  }
  // With two-factor on, the new sign-in waits for a code first.
  const dashboard = localizedPath(lang, '/dashboard');
  return seeOther(
    result.data.twoFactor ? `${localizedPath(lang, '/two-factor')}?next=${encodeURIComponent(dashboard)}` : dashboard,
    response,
  );
}
