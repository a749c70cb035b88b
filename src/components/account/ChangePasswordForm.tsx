import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { PasswordField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { changePassword } from '../../lib/auth-client.ts';
import { showToast } from '../../stores/toasts.ts';
import type { PostedForm } from '../../lib/posted-form.ts';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'settings.');

export default function ChangePasswordIsland({
  messages,
  posted,
}: {
  messages: IslandMessages;
  /** The form as the page answered it, posted before this island hydrated. */
  posted?: PostedForm | undefined;
}) {
  return (
    <I18nIsland messages={messages}>
      <ChangePasswordForm posted={posted} />
    </I18nIsland>
  );
}

function ChangePasswordForm({ posted }: { posted: PostedForm | undefined }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.ChangePasswordSchema), EMPTY, {
    idPrefix: 'password',
    posted,
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
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <PasswordField label={t('settings.currentPassword')} autoComplete="current-password" {...form.bind('currentPassword')} />
      <PasswordField label={t('settings.newPassword')} autoComplete="new-password" {...form.bind('newPassword')} />
      <PasswordField label={t('settings.confirmNewPassword')} autoComplete="new-password" {...form.bind('confirmPassword')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('settings.updatePassword')} busyLabel={t('settings.saving')} />
    </Form>
  );
}
