import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { PasswordField } from '../forms/PasswordField.tsx';
import { FormFailure, useForm } from '../forms/use-form.tsx';
import { ChangePasswordSchema } from '../../lib/auth.schema.ts';
import { changePassword } from '../../lib/auth-client.ts';
import { showToast } from '../../stores/toasts.ts';
import type { Language } from '../../i18n/languages.ts';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

export default function ChangePasswordIsland({ lang }: { lang: Language }) {
  return (
    <I18nIsland lang={lang}>
      <ChangePasswordForm />
    </I18nIsland>
  );
}

function ChangePasswordForm() {
  const { t } = useTranslation();
  const form = useForm(ChangePasswordSchema, EMPTY);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const data = form.validate();
    if (!data) return;
    form.setBusy(true);
    const result = await changePassword(data.currentPassword, data.newPassword);
    form.setBusy(false);
    if (!result.ok) {
      const message = result.message === 'settings.wrongCurrentPassword' ? result.message : 'settings.passwordFailed';
      if (message === 'settings.wrongCurrentPassword') form.setErrors({ currentPassword: message });
      else form.setFailure(message);
      showToast('error', t(message));
      return;
    }
    form.setValues(EMPTY);
    showToast('success', t('settings.passwordSaved'));
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <PasswordField
        label={t('settings.currentPassword')}
        autoComplete="current-password"
        {...form.bind('currentPassword', 'password')}
      />
      <PasswordField label={t('settings.newPassword')} autoComplete="new-password" {...form.bind('newPassword', 'password')} />
      <PasswordField
        label={t('settings.confirmNewPassword')}
        autoComplete="new-password"
        {...form.bind('confirmPassword', 'password')}
      />
      <FormFailure message={form.failure} />
      <button
        type="submit"
        disabled={form.busy}
        className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {form.busy ? t('settings.saving') : t('settings.updatePassword')}
      </button>
    </form>
  );
}
