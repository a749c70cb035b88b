import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { TextField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { changeEmail } from '../../lib/auth-client.ts';
import { localizedPath } from '../../i18n/languages.ts';
import type { FormIslandProps } from '../../lib/posted-form.ts';

/** A new address replaces the old one only once it answers the confirmation mail sent to it. */
/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ACCOUNT_ANSWERS,
  'auth.sending',
  'settings.changeEmail',
  'settings.emailConfirmSent',
  'settings.newEmail',
);

export default function ChangeEmailIsland(props: FormIslandProps) {
  return (
    <I18nIsland messages={props.messages}>
      <ChangeEmailForm {...props} />
    </I18nIsland>
  );
}

function ChangeEmailForm({ lang, posted }: FormIslandProps) {
  const { t } = useTranslation();
  // Posted without JavaScript and sent: the page says where the mail went, and the field is empty again.
  const sent = posted?.form === 'change-email' && posted.done ? posted.values.newEmail : undefined;
  const form = useForm(
    () => schemas().then((s) => s.ChangeEmailSchema),
    { newEmail: '' },
    { idPrefix: 'change-email', posted: sent === undefined ? posted : undefined },
  );
  const [sentTo, setSentTo] = useState<string | null>(sent ?? null);

  const submit = form.handleSubmit(async (data) => {
    const result = await changeEmail(data.newEmail, `${localizedPath(lang, '/dashboard/settings')}?email=changed`);
    if (result.ok) {
      setSentTo(data.newEmail);
      form.setValues({ newEmail: '' });
    }
    return result;
  });

  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <TextField label={t('settings.newEmail')} type="email" autoComplete="email" {...form.bind('newEmail')} />
      <FormFailure message={form.failure} />
      {sentTo && (
        <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
          {t('settings.emailConfirmSent', { email: sentTo })}
        </p>
      )}
      <SubmitButton busy={form.busy} label={t('settings.changeEmail')} busyLabel={t('auth.sending')} tone="secondary" />
    </Form>
  );
}
