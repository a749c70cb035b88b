import { SelectField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { PaymentChoicesSchema, type PaymentChoices } from '../../../lib/admin/payment-choices.schema.ts';
import { CURRENCIES } from '../../../lib/course-filters.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { showToast } from '../../../stores/toasts.ts';

/** A payment provider as the settings show it: keys live in the environment, so only whether they are set. */
export interface ProviderStatus {
  name: string;
  label: string;
  configured: boolean;
}

interface Props {
  messages: IslandMessages;
  providers: ProviderStatus[];
  choices: PaymentChoices;
  /** Who takes each currency now (the choice, or the first configured provider), by label; '' for nobody. */
  takenBy: Record<string, string>;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ADMIN_SHARED, 'admin.payments.', 'currency.');

export default function PaymentChoicesFormIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <PaymentChoicesForm {...props} />
    </I18nIsland>
  );
}

/** Which configured provider takes each currency (TRY → iyzico, USD and EUR → Stripe, or one for all). */
function PaymentChoicesForm({ providers, choices, takenBy }: Props) {
  const { t } = useTranslation();
  const form = useForm(PaymentChoicesSchema, choices, {
    idPrefix: 'payments',
    invalidMessage: 'admin.payments.saveFailed',
    onFailure: () => showToast('error', t('admin.payments.saveFailed')),
  });
  const configured = providers.filter((provider) => provider.configured);
  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson('PUT', '/api/admin/payment-choices', data);
    if (result.ok) showToast('success', t('admin.payments.saved'));
    return result;
  });

  return (
    <Form onSubmit={submit} className="space-y-6">
      <p className="text-sm text-gray-600">{t('admin.payments.intro')}</p>
      <ul className="space-y-1 text-sm">
        {providers.map((provider) => (
          <li key={provider.name}>
            <span className="font-medium">{provider.label}</span>:{' '}
            {t(provider.configured ? 'admin.payments.configured' : 'admin.payments.notConfigured')}
          </li>
        ))}
      </ul>
      <div className="grid gap-4 md:grid-cols-3">
        {CURRENCIES.map((currency) => (
          <SelectField
            key={currency}
            label={t('admin.payments.takes', { currency: t(`currency.${currency}`) })}
            hint={takenBy[currency] ? t('admin.payments.takenBy', { provider: takenBy[currency] }) : t('admin.payments.nobody')}
            {...form.bind(currency)}
          >
            <option value="">{t('admin.payments.firstConfigured')}</option>
            {configured.map((provider) => (
              <option key={provider.name} value={provider.name}>
                {provider.label}
              </option>
            ))}
          </SelectField>
        ))}
      </div>
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('admin.payments.save')} busyLabel={t('admin.payments.saving')} />
    </Form>
  );
}
