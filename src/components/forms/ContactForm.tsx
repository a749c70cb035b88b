import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { TextAreaField, TextField } from './fields.tsx';
import { FormFailure, useForm, SubmitButton } from './use-form.tsx';
import { ContactMessageSchema, type ContactMessage } from '../../lib/contact.schema.ts';
import { postJson } from '../../lib/api-client.ts';
import type { Language } from '../../i18n/languages.ts';

const EMPTY: ContactMessage = { name: '', email: '', subject: '', message: '' };

export default function ContactFormIsland({ lang }: { lang: Language }) {
  return (
    <I18nIsland lang={lang}>
      <ContactForm lang={lang} />
    </I18nIsland>
  );
}

function ContactForm({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const form = useForm(ContactMessageSchema, EMPTY, { idPrefix: 'contact' });
  const [sent, setSent] = useState(false);

  const submit = form.handleSubmit(async (data) => {
    setSent(false);
    const result = await postJson<{ id: string }>('/api/contact', { ...data, language: lang });
    if (!result.ok) return { ...result, message: result.status === 400 ? result.message : 'contact.failed' };
    form.setValues(EMPTY);
    setSent(true);
    return result;
  });
  // Typing again after sending starts a new message: the confirmation goes.
  const bind = (name: keyof ContactMessage) => {
    const field = form.bind(name);
    const onChange = (event: { target: { value: string } }) => {
      setSent(false);
      field.onChange(event);
    };
    return { ...field, onChange };
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="contact-form-title">
      <TextField label={t('contact.name')} autoComplete="name" {...bind('name')} />
      <TextField label={t('contact.email')} type="email" autoComplete="email" {...bind('email')} />
      <TextField label={t('contact.subject')} {...bind('subject')} />
      <TextAreaField label={t('contact.message')} rows={6} {...bind('message')} />
      <FormFailure message={form.failure} />
      {sent && (
        <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-emerald-800">
          {t('contact.success')}
        </div>
      )}
      <SubmitButton busy={form.busy} label={t('contact.send')} busyLabel={t('contact.sending')} />
    </form>
  );
}
