import { useEffect, useState } from 'react';
import { useBrowserValue } from '../islands/use-browser-value.ts';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { PasswordField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { resetPassword } from '../../lib/auth-client.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import type { FormIslandProps, PostedForm } from '../../lib/posted-form.ts';

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS);

export default function ResetPasswordIsland({ lang, messages, posted }: FormIslandProps) {
  return (
    <I18nIsland messages={messages}>
      <ResetPasswordForm lang={lang} posted={posted} />
    </I18nIsland>
  );
}

function ResetPasswordForm({ lang, posted }: { lang: Language; posted: PostedForm | undefined }) {
  const { t } = useTranslation();
  // The link's token: unknown (null) while rendered on the server, read from the address in the browser.
  const token = useBrowserValue<string | null>(() => new URLSearchParams(location.search).get('token') ?? '', null);
  const [checked, setChecked] = useState<{ token: string; valid: boolean } | null>(null);
  const form = useForm(
    () => schemas().then((s) => s.ResetPasswordSchema),
    { password: '', confirmPassword: '' },
    { idPrefix: 'reset', posted },
  );

  useEffect(() => {
    if (!token) return;
    fetch(`/api/password-reset?token=${encodeURIComponent(token)}`)
      .then((response) => response.json() as Promise<{ valid: boolean }>)
      .then((result) => setChecked({ token, valid: result.valid }))
      .catch(() => setChecked({ token, valid: false }));
  }, [token]);

  // The form is there from the first paint (it works before this script, posted to the page with
  // the token in its address); only a link found invalid replaces it.
  const invalid = token === '' || (checked?.token === token && !checked.valid);
  const checking = token !== null && token !== '' && checked?.token !== token;

  const submit = form.handleSubmit(async (data) => {
    const result = await resetPassword(token ?? '', data.password, data.confirmPassword);
    if (!result.ok) {
      if (result.status === 400 && result.message === 'reset.invalidTitle') setChecked({ token: token ?? '', valid: false });
      return { ...result, message: result.status === 400 ? 'reset.failed' : result.message };
    }
    showToastOnNextPage('success', t('reset.success'));
    // With two-factor on, the new sign-in waits for a code first.
    const dashboard = localizedPath(lang, '/dashboard');
    location.assign(
      result.data.twoFactor ? `${localizedPath(lang, '/two-factor')}?next=${encodeURIComponent(dashboard)}` : dashboard,
    );
    return 'navigating';
  });

  if (invalid) {
    return (
      <div role="alert" className="space-y-3 text-center">
        <h2 className="text-xl font-bold">{t('reset.invalidTitle')}</h2>
        <p className="text-gray-700">{t('reset.invalidText')}</p>
        <a
          href={localizedPath(lang, '/forgot-password')}
          className="inline-block rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {t('reset.requestNew')}
        </a>
      </div>
    );
  }
  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      {checking && (
        <p role="status" className="text-sm text-gray-600">
          {t('reset.checking')}
        </p>
      )}
      <PasswordField label={t('reset.newPassword')} autoComplete="new-password" {...form.bind('password')} />
      <PasswordField label={t('reset.confirmPassword')} autoComplete="new-password" {...form.bind('confirmPassword')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('reset.submit')} busyLabel={t('reset.updating')} wide />
    </Form>
  );
}
