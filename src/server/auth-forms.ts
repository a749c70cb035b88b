import { ALL as authRoute } from '../pages/api/auth/[...all].ts';
import { authAnswer, signInLinkRequest } from '../lib/auth-client.ts';
import { LoginSchema, SignInLinkSchema } from '../lib/auth.schema.ts';
import { safeNextPath } from '../lib/next-path.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import type { PostedForm } from '../lib/posted-form.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { callEndpoint, checkPosted, keptValues, seeOther, type PageContext } from './form-post.ts';

/**
 * The account forms posted to their pages without JavaScript (decision 37): each checked by its
 * island's schema and sent to the same /api/auth endpoint the island calls, in-process. The page
 * reads the body (`readFormPost`) and gets a Response to return (the next page) or the form to show
 * again with the status to answer it with.
 */
export type FormPostOutcome = Response | { posted: PostedForm; status: number };

/** Where a sign-in goes next: the page's `next`, a same-site path, or the dashboard. */
const nextPathOf = (page: PageContext, lang: Language) =>
  safeNextPath(page.url.searchParams.get('next'), localizedPath(lang, '/dashboard'));

/** The endpoint's answer: the next page on success, else the form again with its failure. */
async function sentToAuth(
  page: PageContext,
  path: string,
  body: unknown,
  fallback: MessageKey,
  form: string,
  values: Record<string, string>,
  onSuccess: (response: Response, data: Record<string, unknown>) => FormPostOutcome,
): Promise<FormPostOutcome> {
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
