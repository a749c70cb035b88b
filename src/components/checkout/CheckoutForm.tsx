import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { TextField } from '../forms/fields.tsx';
import { FormFailure, useForm, SubmitButton } from '../forms/use-form.tsx';
import { CheckoutFormSchema } from '../../lib/checkout.schema.ts';
import { postJson } from '../../lib/api-client.ts';
import { saveCheckoutInfo } from '../../lib/checkout-info.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';

interface Props {
  lang: Language;
  courseId: string;
  courseTitle: string;
  amountMinor: number;
  currency: string;
  email: string;
  fullName: string;
  /** A signed-in buyer's course goes to their account: the address is the account's, not editable here. */
  signedIn: boolean;
}

export default function CheckoutFormIsland(props: Props) {
  return (
    <I18nIsland lang={props.lang}>
      <CheckoutForm {...props} />
    </I18nIsland>
  );
}

function CheckoutForm({ lang, courseId, courseTitle, amountMinor, currency, email, fullName, signedIn }: Props) {
  const { t } = useTranslation();
  const form = useForm(CheckoutFormSchema, { email, fullName }, { idPrefix: 'checkout' });
  const [owned, setOwned] = useState<string | null>(null);
  const free = amountMinor === 0;
  const empty = !form.values.email.trim() || !form.values.fullName.trim();

  const send = form.handleSubmit(async (data) => {
    const result = await postJson<{ redirectUrl?: string; alreadyOwned?: boolean; courseUrl?: string }>('/api/checkout', {
      ...data,
      courseId,
      language: lang,
    });
    if (result.ok && result.data.redirectUrl) {
      saveCheckoutInfo({
        courseId,
        courseTitle,
        email: data.email,
        fullName: data.fullName,
        amount: amountMinor,
        currency,
        language: lang,
        isFree: free,
      });
      location.assign(result.data.redirectUrl);
      return 'navigating';
    }
    if (result.ok) return { ok: false, status: 502, message: 'checkout.failed', fields: {} };
    if (result.status === 409) return setOwned(localizedPath(lang, `/course/${courseId}`));
    return { ...result, message: result.status === 400 || result.status === 404 ? result.message : 'checkout.failed' };
  });
  // The spec's own message when a required field is left empty, before any field-level check.
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    if (!empty) return send(event);
    event.preventDefault();
    form.setFailure('checkout.required');
  };

  if (owned) {
    return (
      <div role="status" className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-900">
        <p className="font-semibold">{t('checkout.alreadyOwned')}</p>
        <p className="flex flex-wrap gap-4">
          <a href={localizedPath(lang, '/dashboard/courses')} className="font-semibold underline">
            {t('checkout.openMyCourses')}
          </a>
          <a href={owned} className="underline">
            {t('checkout.openCourse')}
          </a>
        </p>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField
        label={t('checkout.email')}
        type="email"
        autoComplete="email"
        required
        readOnly={signedIn}
        hint={signedIn ? t('checkout.accountEmail') : t('checkout.guestEmail')}
        {...form.bind('email')}
      />
      <TextField label={t('checkout.fullName')} autoComplete="name" required {...form.bind('fullName')} />
      <FormFailure message={form.failure} />
      <SubmitButton
        busy={form.busy}
        label={free ? t('checkout.enrolFree') : t('checkout.proceedToPayment')}
        busyLabel={t('checkout.processing')}
        wide
        disabled={empty}
      />
    </form>
  );
}
