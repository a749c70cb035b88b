import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { PasswordField } from '../forms/fields.tsx';
import { FormFailure, useForm, SubmitButton } from '../forms/use-form.tsx';
import { SetPasswordSchema } from '../../lib/auth.schema.ts';
import { setPassword } from '../../lib/auth-client.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import type { Language } from '../../i18n/languages.ts';

/** For an account that has only ever signed in by e-mail link (a guest buyer): its first password. */
export default function SetPasswordIsland({ lang }: { lang: Language }) {
  return (
    <I18nIsland lang={lang}>
      <SetPasswordForm />
    </I18nIsland>
  );
}

function SetPasswordForm() {
  const { t } = useTranslation();
  const form = useForm(SetPasswordSchema, { newPassword: '', confirmPassword: '' }, { idPrefix: 'set-password' });

  const submit = form.handleSubmit(async (data) => {
    const result = await setPassword(data.newPassword);
    if (!result.ok) return result;
    // The page changes: from now on this account changes its password with the old one.
    showToastOnNextPage('success', t('settings.passwordSet'));
    location.reload();
    return 'navigating';
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-gray-600">{t('settings.setPasswordIntro')}</p>
      <PasswordField label={t('settings.newPassword')} autoComplete="new-password" {...form.bind('newPassword')} />
      <PasswordField label={t('settings.confirmNewPassword')} autoComplete="new-password" {...form.bind('confirmPassword')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('settings.setPassword')} busyLabel={t('settings.saving')} />
    </form>
  );
}
