import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { PasswordField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { setPassword } from '../../lib/auth-client.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import type { PostedForm } from '../../lib/posted-form.ts';

/** For an account that has only ever signed in by e-mail link (a guest buyer): its first password. */
/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'settings.');

export default function SetPasswordIsland({
  messages,
  posted,
}: {
  messages: IslandMessages;
  /** The form as the page answered it, posted before this island hydrated. */
  posted?: PostedForm | undefined;
}) {
  return (
    <I18nIsland messages={messages}>
      <SetPasswordForm posted={posted} />
    </I18nIsland>
  );
}

function SetPasswordForm({ posted }: { posted: PostedForm | undefined }) {
  const { t } = useTranslation();
  const form = useForm(
    () => schemas().then((s) => s.SetPasswordSchema),
    { newPassword: '', confirmPassword: '' },
    { idPrefix: 'set-password', posted },
  );

  const submit = form.handleSubmit(async (data) => {
    const result = await setPassword(data.newPassword);
    if (!result.ok) return result;
    // The page changes: from now on this account changes its password with the old one.
    showToastOnNextPage('success', t('settings.passwordSet'));
    location.reload();
    return 'navigating';
  });

  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <p className="text-sm text-gray-600">{t('settings.setPasswordIntro')}</p>
      <PasswordField label={t('settings.newPassword')} autoComplete="new-password" {...form.bind('newPassword')} />
      <PasswordField label={t('settings.confirmNewPassword')} autoComplete="new-password" {...form.bind('confirmPassword')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('settings.setPassword')} busyLabel={t('settings.saving')} />
    </Form>
  );
}
