import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { PasswordField } from '../forms/fields.tsx';
import { FormFailure, useForm, SubmitButton } from '../forms/use-form.tsx';
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
  const form = useForm(ChangePasswordSchema, EMPTY, {
    idPrefix: 'password',
    onFailure: (message) => showToast('error', t(message)),
  });

  const submit = form.handleSubmit(async (data) => {
    const result = await changePassword(data.currentPassword, data.newPassword);
    if (result.ok) {
      form.setValues(EMPTY);
      return showToast('success', t('settings.passwordSaved'));
    }
    // A wrong current password is said at that field; anything else above the button.
    if (result.message === 'settings.wrongCurrentPassword') return { ...result, fields: { currentPassword: result.message } };
    return { ...result, message: 'settings.passwordFailed' };
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <PasswordField label={t('settings.currentPassword')} autoComplete="current-password" {...form.bind('currentPassword')} />
      <PasswordField label={t('settings.newPassword')} autoComplete="new-password" {...form.bind('newPassword')} />
      <PasswordField label={t('settings.confirmNewPassword')} autoComplete="new-password" {...form.bind('confirmPassword')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('settings.updatePassword')} busyLabel={t('settings.saving')} />
    </form>
  );
}
