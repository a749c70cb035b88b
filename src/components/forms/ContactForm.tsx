import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { TextAreaField, TextField } from './Field.tsx';
import { ContactMessageSchema, type ContactMessage } from '../../lib/contact.schema.ts';
import { postJson } from '../../lib/api-client.ts';
import { fieldErrors, type FieldErrors } from '../../lib/validation.ts';
import type { Language } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/i18n.ts';

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
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState<MessageKey | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = ContactMessageSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setState('sending');
    const result = await postJson<{ id: string }>('/api/contact', { ...parsed.data, language: lang });
    if (result.ok) {
      setValues(EMPTY);
      setState('sent');
    } else {
      setErrors(result.fields);
      setFailure(result.status === 400 ? result.message : 'contact.failed');
      setState('idle');
    }
  };

  const bind = (name: keyof ContactMessage) => ({
    id: `contact-${name}`,
    name,
    value: values[name],
    error: errors[name] ? t(errors[name]) : undefined,
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [name]: event.target.value }));
      if (state === 'sent') setState('idle');
    },
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="contact-form-title">
      <TextField label={t('contact.name')} autoComplete="name" {...bind('name')} />
      <TextField label={t('contact.email')} type="email" autoComplete="email" {...bind('email')} />
      <TextField label={t('contact.subject')} {...bind('subject')} />
      <TextAreaField label={t('contact.message')} rows={6} {...bind('message')} />
      {failure && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
          {t(failure)}
        </div>
      )}
      {state === 'sent' && (
        <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-emerald-800">
          {t('contact.success')}
        </div>
      )}
      <button
        type="submit"
        disabled={state === 'sending'}
        className="rounded-lg bg-brand-600 px-6 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {state === 'sending' ? t('contact.sending') : t('contact.send')}
      </button>
    </form>
  );
}
