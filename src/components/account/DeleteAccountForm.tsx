import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { PasswordField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { postJson } from '../../lib/api-client.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import { localizedPath } from '../../i18n/languages.ts';
import type { FormIslandProps } from '../../lib/posted-form.ts';

interface Props extends FormIslandProps {
  /** An account without a password proves itself by a fresh sign-in instead. */
  hasPassword: boolean;
}

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ACCOUNT_ANSWERS,
  'settings.deleteAccount',
  'settings.deleteConfirm',
  'settings.deleteFreshSignIn',
  'settings.deleteIntro',
  'settings.deletePassword',
  'settings.deleteSignInAgain',
  'settings.deleted',
  'settings.deleting',
);

export default function DeleteAccountIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <DeleteAccountForm {...props} />
    </I18nIsland>
  );
}

function DeleteAccountForm({ lang, hasPassword, posted }: Props) {
  const { t } = useTranslation();
  const unconfirmed: { password: string; confirm: boolean } = { password: '', confirm: false };
  const form = useForm(() => schemas().then((s) => s.DeleteAccountSchema), unconfirmed, {
    idPrefix: 'delete-account',
    posted,
  });

  const submit = form.handleSubmit(async (data) => {
    const result = await postJson<{ ok: true }>('/api/account/delete', data);
    if (!result.ok) return result;
    sessionStorage.removeItem('account');
    showToastOnNextPage('success', t('settings.deleted'));
    location.assign(localizedPath(lang, '/'));
    return 'navigating';
  });

  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <p className="text-sm text-gray-700">{t('settings.deleteIntro')}</p>
      {hasPassword ? (
        <PasswordField label={t('settings.deletePassword')} autoComplete="current-password" {...form.bind('password')} />
      ) : (
        <p className="text-sm text-gray-600">{t('settings.deleteFreshSignIn')}</p>
      )}
      <div>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            id={form.idOf('confirm')}
            name="confirm"
            checked={form.values.confirm}
            onChange={(event) => form.set('confirm', event.target.checked)}
            aria-invalid={form.errors.confirm ? true : undefined}
            aria-describedby={form.errors.confirm ? `${form.idOf('confirm')}-error` : undefined}
            className="mt-1"
          />
          <span>{t('settings.deleteConfirm')}</span>
        </label>
        {form.errors.confirm && (
          <p id={`${form.idOf('confirm')}-error`} className="mt-1 text-sm text-red-700">
            {t(form.errors.confirm)}
          </p>
        )}
      </div>
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('settings.deleteAccount')} busyLabel={t('settings.deleting')} tone="danger" />
    </Form>
  );
}
