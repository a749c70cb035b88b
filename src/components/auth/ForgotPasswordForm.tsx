import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { TextField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { requestPasswordReset } from '../../lib/auth-client.ts';
import { showToast } from '../../stores/toasts.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import type { FormIslandProps, PostedForm } from '../../lib/posted-form.ts';

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'auth.');

export default function ForgotPasswordIsland({ lang, messages, posted }: FormIslandProps) {
  return (
    <I18nIsland messages={messages}>
      <ForgotPasswordForm lang={lang} posted={posted} />
    </I18nIsland>
  );
}

function ForgotPasswordForm({ lang, posted }: { lang: Language; posted: PostedForm | undefined }) {
  const { t } = useTranslation();
  const form = useForm(
    () => schemas().then((s) => s.ForgotPasswordSchema),
    { email: '' },
    { idPrefix: 'forgot', posted, onFailure: (message) => showToast('error', t(message)) },
  );
  const [sentTo, setSentTo] = useState<string | null>(
    posted?.form === form.name && posted.done ? (posted.values.email ?? null) : null,
  );

  const submit = form.handleSubmit(async (data) => {
    const result = await requestPasswordReset(data.email);
    if (!result.ok) return result;
    showToast('success', t('auth.resetEmailSent'));
    setSentTo(data.email);
    return result;
  });

  if (sentTo) {
    return (
      <div className="space-y-4 text-center" role="status">
        <h2 className="text-xl font-bold">{t('auth.checkEmailTitle')}</h2>
        <p className="text-gray-700">{t('auth.checkEmailText', { email: sentTo })}</p>
        <p className="text-sm text-gray-600">{t('auth.spamHint')}</p>
        <a
          href={localizedPath(lang, '/login')}
          className="block rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {t('auth.backToLogin')}
        </a>
        <button
          type="button"
          onClick={() => setSentTo(null)}
          className="w-full rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('auth.tryDifferentEmail')}
        </button>
      </div>
    );
  }

  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <TextField label={t('auth.email')} type="email" autoComplete="email" {...form.bind('email')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('auth.sendResetLink')} busyLabel={t('auth.sending')} wide />
      <p className="text-center text-sm">
        <a href={localizedPath(lang, '/login')} className="font-medium text-brand-700 underline">
          {t('auth.backToLogin')}
        </a>
      </p>
    </Form>
  );
}
