import { useEffect, useState } from 'react';
import { useTranslation } from '../islands/I18nIsland.tsx';
import { CheckboxField, SelectField, TextField } from '../forms/fields.tsx';
import { useForm } from '../forms/use-form.tsx';
import { postJson, type ApiResult } from '../../lib/api-client.ts';
import { formatMoney } from '../../lib/money.ts';
import type { TaxProps, TaxQuote } from '../../lib/checkout-tax.schema.ts';
import type { Language } from '../../i18n/languages.ts';

/** For a shop whose seller has not set a tax country: nothing is asked (hooks still run). */
const NO_TAX: TaxProps = {
  countries: [],
  country: '',
  vatNumber: '',
  businessName: '',
  quote: {
    scheme: 'flat',
    taxCountry: '',
    ratePercent: 0,
    netMinor: 0,
    taxMinor: 0,
    grossMinor: 0,
    inclusive: true,
    currency: '',
  },
  confirmAgainst: null,
};

const schema = () => import('../../lib/checkout-tax.schema.ts').then((module) => module.TaxFieldsSchema);

/** The tax fields' state and the quote they give; the checkout form sends `payload()` with its own fields. */
export function useTaxFields(
  lang: Language,
  courseId: string,
  discountCode: string,
  given: TaxProps | null,
  enabled: boolean,
  /** A pay-what-you-want buyer's price: the tax is on it. */
  price?: string,
  /** The currency charged (a bundle's may be other than its own). */
  currency?: string,
) {
  const props = given ?? NO_TAX;
  const initial: Record<'country' | 'vatNumber' | 'businessName', string> & { confirmCountry: boolean } = {
    country: props.country,
    vatNumber: props.vatNumber,
    businessName: props.businessName,
    confirmCountry: false,
  };
  const form = useForm(schema, initial, { idPrefix: 'tax' });
  const [quote, setQuote] = useState(props.quote);
  const [confirmAgainst, setConfirmAgainst] = useState(props.confirmAgainst);
  const { country, vatNumber, businessName } = form.values;
  const { setErrors } = form;
  const [asked, setAsked] = useState({ country, vatNumber, discountCode, price });
  // The VAT number is asked about only once it is complete (on leaving the field), not at every key.
  const [typedVatNumber, typeVatNumber] = useState(vatNumber);

  // A new country, VAT number (once typed) or code: the server says what the order costs now.
  useEffect(() => {
    if (
      !enabled ||
      (asked.country === country && asked.vatNumber === vatNumber && asked.discountCode === discountCode && asked.price === price)
    )
      return;
    let current = true;
    void postJson<{ quote: TaxQuote; confirmAgainst: string | null }>('/api/checkout/tax', {
      courseId,
      language: lang,
      currency,
      discountCode,
      price,
      country,
      vatNumber,
      businessName,
    }).then((result) => {
      if (!current) return;
      setAsked({ country, vatNumber, discountCode, price });
      if (result.ok) {
        setQuote(result.data.quote);
        setConfirmAgainst(result.data.confirmAgainst);
        setErrors({});
      } else setErrors(result.fields);
    });
    return () => {
      current = false;
    };
  }, [enabled, asked, country, vatNumber, businessName, discountCode, price, courseId, lang, currency, setErrors]);

  return {
    form,
    quote,
    confirmAgainst,
    /** What checkout sends: the fields, and the total the buyer is looking at. */
    typedVatNumber,
    typeVatNumber,
    payload: () => ({ ...form.values, vatNumber: typedVatNumber, expectedTotalMinor: quote.grossMinor }),
    /** A refused checkout's errors at the tax fields; true when there were some. */
    showFailure: (result: ApiResult<unknown>) => {
      if (result.ok) return false;
      const mine = Object.fromEntries(Object.entries(result.fields).filter(([name]) => name in form.values));
      if (Object.keys(mine).length === 0) return false;
      setErrors(mine);
      // The total changed meanwhile: ask again, so the buyer sees the one they will pay.
      setAsked({ country: '', vatNumber, discountCode, price });
      return true;
    },
  };
}

type TaxState = ReturnType<typeof useTaxFields>;

/** The buyer's country, an optional business and VAT number, and the total for them, before the pay button. */
export function TaxFields({ lang, tax, countries }: { lang: Language; tax: TaxState; countries: TaxProps['countries'] }) {
  const { t } = useTranslation();
  const { form, quote, confirmAgainst } = tax;
  const money = (minor: number) => formatMoney(minor, quote.currency, lang);
  const nameOf = (code: string) => countries.find((entry) => entry.code === code)?.name ?? code;
  const label = t(quote.taxCountry === 'TR' ? 'checkout.tax.kdv' : 'checkout.tax.vat');
  const rate = quote.ratePercent.toLocaleString(lang);

  return (
    <fieldset className="space-y-3 rounded-lg border border-gray-200 p-3">
      <legend className="px-1 font-semibold">{t('checkout.tax.title')}</legend>
      <SelectField
        label={t('checkout.tax.country')}
        hint={t('checkout.tax.countryHint')}
        autoComplete="country"
        required
        {...form.bind('country')}
      >
        <option value="">—</option>
        {countries.map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </SelectField>
      {confirmAgainst && form.values.country && (
        <CheckboxField
          id={form.idOf('confirmCountry')}
          name="confirmCountry"
          checked={form.values.confirmCountry}
          onChange={(checked) => form.set('confirmCountry', checked)}
          error={form.errors.confirmCountry ? t(form.errors.confirmCountry) : undefined}
          label={t('checkout.tax.confirmCountry', { country: nameOf(form.values.country) })}
          hint={t('checkout.tax.confirmCountryHint', { ipCountry: nameOf(confirmAgainst) })}
        />
      )}
      <details className="rounded border border-gray-200 p-2" open={Boolean(form.values.vatNumber || form.values.businessName)}>
        <summary className="cursor-pointer text-sm font-medium">{t('checkout.tax.business')}</summary>
        <div className="mt-2 space-y-3">
          <TextField label={t('checkout.tax.businessName')} autoComplete="organization" {...form.bind('businessName')} />
          <TextField
            label={t('checkout.tax.vatNumber')}
            hint={t('checkout.tax.vatNumberHint')}
            autoComplete="off"
            {...form.bind('vatNumber')}
            value={tax.typedVatNumber}
            onChange={(event) => tax.typeVatNumber(event.target.value)}
            onBlur={() => form.set('vatNumber', tax.typedVatNumber)}
          />
        </div>
      </details>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" aria-live="polite">
        <dt>{t('checkout.tax.subtotal')}</dt>
        <dd className="text-right">{money(quote.inclusive ? quote.grossMinor : quote.netMinor)}</dd>
        {quote.scheme === 'reverse_charge' ? (
          <dt className="col-span-2">{t('checkout.tax.reverseCharge')}</dt>
        ) : quote.taxMinor > 0 && quote.inclusive ? (
          <dt className="col-span-2 text-gray-600">
            {t('checkout.tax.included', { label, rate, amount: money(quote.taxMinor) })}
          </dt>
        ) : quote.taxMinor > 0 ? (
          <>
            <dt>{t('checkout.tax.line', { label, rate })}</dt>
            <dd className="text-right">{money(quote.taxMinor)}</dd>
          </>
        ) : null}
        <dt className="font-semibold">{t('checkout.tax.total')}</dt>
        <dd className="text-right font-semibold" data-testid="checkout-tax-total">
          {money(quote.grossMinor)}
        </dd>
      </dl>
      <input type="hidden" name="expectedTotalMinor" value={quote.grossMinor} />
      <p className="text-xs text-gray-500">{t('checkout.tax.geoAttribution')}</p>
    </fieldset>
  );
}
