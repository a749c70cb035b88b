import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { TextField } from '../forms/fields.tsx';
import { FormFailure, useForm, SubmitButton } from '../forms/use-form.tsx';
import { ForgotPasswordSchema } from '../../lib/auth.schema.ts';
import { requestPasswordReset } from '../../lib/auth-client.ts';
import { showToast } from '../../stores/toasts.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';

export default function ForgotPasswordIsland({ lang }: { lang: Language }) {
  return (
    <I18nIsland lang={lang}>
      <ForgotPasswordForm lang={lang} />
    </I18nIsland>
  );
}

function ForgotPasswordForm({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const form = useForm(
    ForgotPasswordSchema,
    { email: '' },
    { idPrefix: 'forgot', onFailure: (message) => showToast('error', t(message)) },
  );
  const [sentTo, setSentTo] = useState<string | null>(null);

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
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField label={t('auth.email')} type="email" autoComplete="email" {...form.bind('email')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('auth.sendResetLink')} busyLabel={t('auth.sending')} wide />
      <p className="text-center text-sm">
        <a href={localizedPath(lang, '/login')} className="font-medium text-brand-700 underline">
          {t('auth.backToLogin')}
        </a>
      </p>
    </form>
  );
}
