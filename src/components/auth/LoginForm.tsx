import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { PasswordField, TextField } from '../forms/fields.tsx';
import { FormFailure, useForm } from '../forms/use-form.tsx';
import { LoginSchema } from '../../lib/auth.schema.ts';
import { safeNextPath, signIn } from '../../lib/auth-client.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';

export default function LoginFormIsland({ lang }: { lang: Language }) {
  return (
    <I18nIsland lang={lang}>
      <LoginForm lang={lang} />
    </I18nIsland>
  );
}

function LoginForm({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const form = useForm(LoginSchema, { email: '', password: '' }, { idPrefix: 'login' });

  const submit = form.handleSubmit(async (data) => {
    const result = await signIn(data.email, data.password);
    if (!result.ok) return result;
    showToastOnNextPage('success', t('auth.welcomeBack'));
    location.assign(safeNextPath(new URLSearchParams(location.search).get('next'), localizedPath(lang, '/dashboard')));
    return 'navigating';
  });

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
      <button
        type="submit"
        disabled={form.busy}
        className="w-full rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {form.busy ? t('auth.loggingIn') : t('auth.loginButton')}
      </button>
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
