import { TextAreaField, TextField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { ShopSettingsSchema, type ShopSettings } from '../../../lib/admin/shop-settings.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  settings: ShopSettings;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ADMIN_SHARED, 'admin.settings.');

export default function ShopSettingsFormIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <ShopSettingsForm {...props} />
    </I18nIsland>
  );
}

const ID = 'settings';

/** The shop's identity: header, footer, contact page, e-mails, legal texts and receipts read it. */
function ShopSettingsForm({ settings }: Props) {
  const { t } = useTranslation();
  const form = useForm(
    ShopSettingsSchema,
    {
      shopName: settings.shopName,
      legalName: settings.legalName,
      address: settings.address,
      supportEmail: settings.supportEmail,
      phone: settings.phone,
      taxNumber: settings.taxNumber,
      taxRatePercent: String(settings.taxRatePercent),
      moneyBackDays: String(settings.moneyBackDays),
      socialLinks: settings.socialLinks.join('\n'),
    },
    {
      idPrefix: ID,
      invalidMessage: 'admin.settings.fixErrors',
      onFailure: () => showToast('error', t('admin.settings.saveFailed')),
    },
  );

  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson('PUT', '/api/admin/settings', data);
    if (result.ok) showToast('success', t('admin.settings.saved'));
    return result;
  });

  return (
    <Form onSubmit={submit} className="space-y-5">
      <div className="grid gap-4 md:grid-cols-2">
        <TextField label={t('admin.settings.shopName')} required autoComplete="organization" {...form.bind('shopName')} />
        <TextField label={t('admin.settings.legalName')} hint={t('admin.settings.legalNameHint')} {...form.bind('legalName')} />
      </div>
      <TextAreaField label={t('admin.settings.address')} rows={2} autoComplete="street-address" {...form.bind('address')} />
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label={t('admin.settings.supportEmail')}
          type="email"
          required
          hint={t('admin.settings.supportEmailHint')}
          {...form.bind('supportEmail')}
        />
        <TextField label={t('admin.settings.phone')} type="tel" autoComplete="tel" {...form.bind('phone')} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <TextField label={t('admin.settings.taxNumber')} {...form.bind('taxNumber')} />
        <TextField
          label={t('admin.settings.taxRate')}
          inputMode="decimal"
          hint={t('admin.settings.taxRateHint')}
          {...form.bind('taxRatePercent')}
        />
      </div>
      <TextField
        label={t('admin.settings.moneyBackDays')}
        inputMode="numeric"
        hint={t('admin.settings.moneyBackDaysHint')}
        {...form.bind('moneyBackDays')}
      />
      <TextAreaField
        label={t('admin.settings.socialLinks')}
        rows={3}
        hint={t('admin.settings.socialLinksHint')}
        spellCheck={false}
        {...form.bind('socialLinks')}
      />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('admin.settings.save')} busyLabel={t('admin.settings.saving')} />
    </Form>
  );
}
