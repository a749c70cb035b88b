import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { TextField } from '../forms/fields.tsx';
import { FormFailure, useForm, SubmitButton } from '../forms/use-form.tsx';
import { ChangeEmailSchema } from '../../lib/auth.schema.ts';
import { changeEmail } from '../../lib/auth-client.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';

/** A new address replaces the old one only once it answers the confirmation mail sent to it. */
export default function ChangeEmailIsland({ lang }: { lang: Language }) {
  return (
    <I18nIsland lang={lang}>
      <ChangeEmailForm lang={lang} />
    </I18nIsland>
  );
}

function ChangeEmailForm({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const form = useForm(ChangeEmailSchema, { newEmail: '' }, { idPrefix: 'change-email' });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = form.handleSubmit(async (data) => {
    const result = await changeEmail(data.newEmail, `${localizedPath(lang, '/dashboard/settings')}?email=changed`);
    if (result.ok) {
      setSentTo(data.newEmail);
      form.setValues({ newEmail: '' });
    }
    return result;
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField label={t('settings.newEmail')} type="email" autoComplete="email" {...form.bind('newEmail')} />
      <FormFailure message={form.failure} />
      {sentTo && (
        <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
          {t('settings.emailConfirmSent', { email: sentTo })}
        </p>
      )}
      <SubmitButton busy={form.busy} label={t('settings.changeEmail')} busyLabel={t('auth.sending')} tone="secondary" />
    </form>
  );
}
