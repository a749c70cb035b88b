import { useState } from 'react';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import {
  DISPLAY_MODES,
  OSS_SCHEMES,
  TaxSettingsSchema,
  overridesText,
  type TaxSettings,
} from '../../../lib/admin/tax-settings.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { CURRENCIES } from '../../../lib/course-filters.ts';
import { formatDate } from '../../../lib/dates.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  settings: TaxSettings;
  courses: { id: string; title: string }[];
  /** The rate table's day (YYYY-MM-DD), whether it is older than six months, and the e-book rates' source. */
  table: { date: string; stale: boolean; ebookSource: string };
  /** Every country by name in the page's language, named by the server (the browser's ICU data may name them otherwise). */
  countries: { code: string; name: string }[];
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ADMIN_SHARED, 'admin.taxes.');

export default function TaxSettingsFormIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <TaxSettingsForm {...props} />
    </I18nIsland>
  );
}

/** Where the seller is and is registered, how prices show tax, overrides and the courses sold as e-books. */
function TaxSettingsForm({ lang, settings, courses, table, countries }: Props) {
  const { t } = useTranslation();
  const form = useForm(
    TaxSettingsSchema,
    {
      sellerCountry: settings.sellerCountry,
      vatNumber: settings.vatNumber,
      taxOffice: settings.taxOffice,
      oss: settings.oss,
      underEuThreshold: settings.underEuThreshold,
      registrations: settings.registrations.join(', '),
      displayMode: settings.displayMode,
      rateOverrides: overridesText(settings.rateOverrides),
      reportingCurrency: settings.reportingCurrency,
    },
    {
      idPrefix: 'taxes',
      invalidMessage: 'admin.taxes.fixErrors',
      onFailure: () => showToast('error', t('admin.taxes.saveFailed')),
    },
  );
  const [ebooks, setEbooks] = useState<string[]>(settings.ebookCourses);
  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson('PUT', '/api/admin/tax-settings', { ...data, ebookCourses: ebooks });
    if (result.ok) showToast('success', t('admin.taxes.saved'));
    return result;
  });

  return (
    <Form onSubmit={submit} className="space-y-6">
      <p className="text-sm text-gray-600">{t('admin.taxes.intro')}</p>
      <p
        className={
          table.stale ? 'rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900' : 'text-sm text-gray-600'
        }
      >
        {t(table.stale ? 'admin.taxes.tableStale' : 'admin.taxes.tableDate', {
          date: formatDate(`${table.date}T12:00:00Z`, lang),
          source: table.ebookSource,
        })}
      </p>
      <fieldset className="space-y-4">
        <legend className="font-semibold">{t('admin.taxes.sellerTitle')}</legend>
        <div className="grid gap-4 md:grid-cols-2">
          <SelectField
            label={t('admin.taxes.sellerCountry')}
            hint={t('admin.taxes.sellerCountryHint')}
            {...form.bind('sellerCountry')}
          >
            <option value="">{t('admin.taxes.noCountry')}</option>
            {countries.map(({ code, name }) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </SelectField>
          <TextField
            label={t('admin.taxes.vatNumber')}
            hint={t('admin.taxes.vatNumberHint')}
            autoComplete="off"
            {...form.bind('vatNumber')}
          />
          <TextField label={t('admin.taxes.taxOffice')} hint={t('admin.taxes.taxOfficeHint')} {...form.bind('taxOffice')} />
          <SelectField label={t('admin.taxes.oss')} {...form.bind('oss')}>
            {OSS_SCHEMES.map((scheme) => (
              <option key={scheme} value={scheme}>
                {t(`admin.taxes.oss.${scheme}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('admin.taxes.reportingCurrency')}
            hint={t('admin.taxes.reportingCurrencyHint')}
            {...form.bind('reportingCurrency')}
          >
            {CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </SelectField>
        </div>
        <CheckboxField
          id={form.idOf('underEuThreshold')}
          name="underEuThreshold"
          checked={form.values.underEuThreshold}
          onChange={(checked) => form.set('underEuThreshold', checked)}
          label={t('admin.taxes.underEuThreshold')}
          hint={t('admin.taxes.underEuThresholdHint')}
        />
        <TextField
          label={t('admin.taxes.registrations')}
          hint={t('admin.taxes.registrationsHint')}
          {...form.bind('registrations')}
        />
      </fieldset>
      <fieldset className="space-y-4">
        <legend className="font-semibold">{t('admin.taxes.pricesTitle')}</legend>
        <SelectField label={t('admin.taxes.displayMode')} hint={t('admin.taxes.displayModeHint')} {...form.bind('displayMode')}>
          {DISPLAY_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`admin.taxes.displayMode.${mode}`)}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label={t('admin.taxes.rateOverrides')}
          hint={t('admin.taxes.rateOverridesHint')}
          rows={3}
          {...form.bind('rateOverrides')}
        />
      </fieldset>
      {courses.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="font-semibold">{t('admin.taxes.ebooksTitle')}</legend>
          <p className="text-sm text-gray-600">{t('admin.taxes.ebooksHint')}</p>
          {courses.map((course) => (
            <CheckboxField
              key={course.id}
              id={`taxes-ebook-${course.id}`}
              checked={ebooks.includes(course.id)}
              onChange={(checked) =>
                setEbooks((current) => (checked ? [...current, course.id] : current.filter((id) => id !== course.id)))
              }
              label={course.title}
            />
          ))}
        </fieldset>
      )}
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('admin.taxes.save')} busyLabel={t('admin.taxes.saving')} />
    </Form>
  );
}
