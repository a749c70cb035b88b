import { SelectField, TextField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { CurrencySettingsSchema, RATE_DECIMALS, type CurrencySettings } from '../../../lib/admin/currency-settings.schema.ts';
import { CURRENCIES } from '../../../lib/course-filters.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/dates.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  settings: CurrencySettings;
  /** False while the built-in values are in use. */
  saved: boolean;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ADMIN_SHARED, 'admin.currencies.', 'currency.');

export default function CurrencySettingsFormIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <CurrencySettingsForm {...props} />
    </I18nIsland>
  );
}

const ID = 'currencies';
const RATE_FIELD = { USD: 'rateUSD', EUR: 'rateEUR', TRY: 'rateTRY' } as const;
const HOME_FIELD = { USD: 'homeMaxUSD', EUR: 'homeMaxEUR', TRY: 'homeMaxTRY' } as const;

/** Today in the seller's own calendar, as a date input writes it. */
function today(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/** Reference rates, each language's default display currency and the home page's limits. */
function CurrencySettingsForm({ lang, settings, saved }: Props) {
  const { t } = useTranslation();
  const form = useForm(
    CurrencySettingsSchema,
    {
      baseCurrency: settings.baseCurrency,
      rateUSD: String(settings.rateUSD),
      rateEUR: String(settings.rateEUR),
      rateTRY: String(settings.rateTRY),
      ratesDate: settings.ratesDate,
      defaultCurrencyEn: settings.defaultCurrencyEn,
      defaultCurrencyTr: settings.defaultCurrencyTr,
      homeMaxUSD: String(settings.homeMaxUSD),
      homeMaxEUR: String(settings.homeMaxEUR),
      homeMaxTRY: String(settings.homeMaxTRY),
    },
    {
      idPrefix: ID,
      invalidMessage: 'admin.currencies.fixErrors',
      onFailure: () => showToast('error', t('admin.currencies.saveFailed')),
    },
  );
  const base = form.values.baseCurrency;

  /** A new base keeps the same market: every rate is divided by the new base's old rate. */
  const changeBase = (value: string) => {
    const next = CURRENCIES.find((code) => code === value);
    if (!next) return;
    const divisor = Number(form.values[RATE_FIELD[next]].replace(',', '.'));
    const rebased = Object.fromEntries(
      CURRENCIES.map((currency) => {
        const rate = Number(form.values[RATE_FIELD[currency]].replace(',', '.'));
        const value = currency === next ? 1 : Number((rate / divisor).toFixed(RATE_DECIMALS));
        return [RATE_FIELD[currency], Number.isFinite(value) && value > 0 ? String(value) : form.values[RATE_FIELD[currency]]];
      }),
    );
    form.setValues((current) => ({ ...current, ...rebased, baseCurrency: next }));
  };

  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson('PUT', '/api/admin/currency-settings', data);
    if (result.ok) showToast('success', t('admin.currencies.saved'));
    return result;
  });

  const currencyOptions = CURRENCIES.map((code) => (
    <option key={code} value={code}>
      {t(`currency.${code}`)}
    </option>
  ));

  return (
    <Form onSubmit={submit} className="space-y-6">
      <p className="text-sm text-gray-600">{t('admin.currencies.intro')}</p>
      <fieldset className="space-y-4">
        <legend className="font-semibold">{t('admin.currencies.ratesTitle')}</legend>
        {!saved && (
          <p className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            {t('admin.currencies.builtIn', { date: formatDate(`${settings.ratesDate}T12:00:00Z`, lang) })}
          </p>
        )}
        <div className="grid gap-4 md:grid-cols-2">
          <SelectField
            label={t('admin.currencies.baseCurrency')}
            hint={t('admin.currencies.baseHint')}
            {...form.bind('baseCurrency')}
            onChange={(event) => changeBase(event.target.value)}
          >
            {currencyOptions}
          </SelectField>
          <TextField
            label={t('admin.currencies.ratesDate')}
            type="date"
            required
            max={today()}
            hint={t('admin.currencies.ratesDateHint')}
            {...form.bind('ratesDate')}
          />
        </div>
        <div className="grid gap-4 md:grid-cols-3">
          {CURRENCIES.map((currency) => {
            const field = form.bind(RATE_FIELD[currency]);
            return (
              <TextField
                key={currency}
                label={t('admin.currencies.rate', { currency, base })}
                inputMode="decimal"
                required
                readOnly={currency === base}
                {...field}
                onChange={(event) => {
                  // New rates are today's unless the seller says otherwise.
                  form.setValues((current) => ({ ...current, [RATE_FIELD[currency]]: event.target.value, ratesDate: today() }));
                }}
              />
            );
          })}
        </div>
      </fieldset>
      <fieldset className="space-y-4">
        <legend className="font-semibold">{t('admin.currencies.defaultsTitle')}</legend>
        <div className="grid gap-4 md:grid-cols-2">
          <SelectField label={t('admin.currencies.defaultCurrencyEn')} {...form.bind('defaultCurrencyEn')}>
            {currencyOptions}
          </SelectField>
          <SelectField label={t('admin.currencies.defaultCurrencyTr')} {...form.bind('defaultCurrencyTr')}>
            {currencyOptions}
          </SelectField>
        </div>
        <p className="text-xs text-gray-600">{t('admin.currencies.defaultsHint')}</p>
      </fieldset>
      <fieldset className="space-y-4">
        <legend className="font-semibold">{t('admin.currencies.homeTitle')}</legend>
        <div className="grid gap-4 md:grid-cols-3">
          {CURRENCIES.map((currency) => (
            <TextField
              key={currency}
              label={t('admin.currencies.homeMax', { currency })}
              inputMode="numeric"
              required
              {...form.bind(HOME_FIELD[currency])}
            />
          ))}
        </div>
        <p className="text-xs text-gray-600">{t('admin.currencies.homeMaxHint')}</p>
      </fieldset>
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('admin.currencies.save')} busyLabel={t('admin.currencies.saving')} />
    </Form>
  );
}
