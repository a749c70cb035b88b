import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { useBrowserValue } from '../islands/use-browser-value.ts';
import { PasswordField, TextField } from '../forms/fields.tsx';
import { FormFailure, useForm, SubmitButton } from '../forms/use-form.tsx';
import { requestSignInLink, signIn } from '../../lib/auth-client.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'auth.');

export default function LoginFormIsland({ lang, messages }: { lang: Language; messages: IslandMessages }) {
  return (
    <I18nIsland messages={messages}>
      <LoginForm lang={lang} />
    </I18nIsland>
  );
}

function nextPath(lang: Language): string {
  return safeNextPath(new URLSearchParams(location.search).get('next'), localizedPath(lang, '/dashboard'));
}

function LoginForm({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.LoginSchema), { email: '', password: '' }, { idPrefix: 'login' });
  // better-auth sends a used or expired sign-in link back here with `?error=`.
  // (An OpenID provider's refusal comes back with `?signin=` too: its own block tells of it.)
  const linkFailed = useBrowserValue(() => {
    const params = new URLSearchParams(location.search);
    return params.has('error') && !params.has('signin');
  }, false);

  const submit = form.handleSubmit(async (data) => {
    const result = await signIn(data.email, data.password);
    if (!result.ok) return result;
    // Two-factor on: the password was right; the code comes next, then the same destination.
    if (result.data.twoFactorRedirect) {
      location.assign(`${localizedPath(lang, '/two-factor')}?next=${encodeURIComponent(nextPath(lang))}`);
      return 'navigating';
    }
    showToastOnNextPage('success', t('auth.welcomeBack'));
    location.assign(nextPath(lang));
    return 'navigating';
  });

  return (
    <div className="space-y-8">
      {linkFailed && (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t('auth.linkExpired')}
        </p>
      )}
      {passwordForm()}
      <SignInLinkForm lang={lang} />
    </div>
  );

  function passwordForm() {
    return (
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField label={t('auth.email')} type="email" autoComplete="email" {...form.bind('email')} />
        <PasswordField label={t('auth.password')} autoComplete="current-password" {...form.bind('password')} />
        <p className="text-right text-sm">
          <a href={localizedPath(lang, '/forgot-password')} className="font-medium text-brand-700 underline">
            {t('auth.forgotPassword')}
          </a>
        </p>
        <FormFailure message={form.failure} />
        <SubmitButton busy={form.busy} label={t('auth.loginButton')} busyLabel={t('auth.loggingIn')} wide />
        <p className="text-center text-sm text-gray-600">
          {t('auth.noAccount')}{' '}
          <a href={localizedPath(lang, '/signup')} className="font-medium text-brand-700 underline">
            {t('auth.signupLink')}
          </a>
        </p>
        <a
          href={localizedPath(lang, '/courses')}
          className="block w-full rounded-lg border border-gray-300 px-4 py-2 text-center font-medium hover:bg-gray-50"
        >
          {t('auth.browseAsGuest')}
        </a>
      </form>
    );
  }
}

/** No password (a guest buyer), or forgot it: one click in an e-mail signs in. */
function SignInLinkForm({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.SignInLinkSchema), { email: '' }, { idPrefix: 'sign-in-link' });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = form.handleSubmit(async (data) => {
    const result = await requestSignInLink(data.email, nextPath(lang), lang);
    if (result.ok) setSentTo(data.email);
    return result;
  });

  return (
    <section aria-labelledby="sign-in-link-title" className="border-t border-gray-200 pt-6">
      <h2 id="sign-in-link-title" className="font-semibold">
        {t('auth.linkTitle')}
      </h2>
      <p className="mt-1 text-sm text-gray-600">{t('auth.linkIntro')}</p>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <TextField label={t('auth.linkEmail')} type="email" autoComplete="email" {...form.bind('email')} />
        <FormFailure message={form.failure} />
        {sentTo && (
          <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
            {t('auth.linkSent', { email: sentTo })}
          </p>
        )}
        <SubmitButton busy={form.busy} label={t('auth.linkButton')} busyLabel={t('auth.sending')} tone="secondary" wide />
      </form>
    </section>
  );
}
