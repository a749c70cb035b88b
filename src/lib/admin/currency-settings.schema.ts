import { z } from '../zod.ts';
import { CURRENCIES, PRICE_FILTER_RANGES, type Currency } from '../course-filters.ts';
import type { Rates } from '../currency.ts';
import type { Language } from '../../i18n/languages.ts';

/**
 * Prices in the shopper's currency, as the seller sets them in Admin → Settings: reference exchange
 * rates (one per currency against a base, and the day they are from), each interface language's
 * default display currency, and the home page's "free or up to" limit per currency. Checked by the same
 * schema in the browser and on the server (client-safe; messages are translation keys); read through
 * functions/shop/currencies.ts. Charges never use these rates.
 */
export const RATE_MAX = 1_000_000;
export const RATE_DECIMALS = 6;
/** Rates older than this many days are flagged on the admin overview. */
export const RATES_STALE_AFTER_DAYS = 30;
const EARLIEST_RATES_DATE = '2000-01-01';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A number typed in a form (a comma is a decimal point too), or a number from stored JSON. */
const typedNumber = (value: unknown) =>
  typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value.trim().replace(',', '.'))) : value;

const Rate = z.preprocess(
  typedNumber,
  z
    .number('admin.currencies.rateInvalid')
    .positive('admin.currencies.rateInvalid')
    .max(RATE_MAX, 'admin.currencies.rateInvalid')
    .refine((rate) => Number(rate.toFixed(RATE_DECIMALS)) === rate, 'admin.currencies.rateInvalid'),
);

const HomeMax = (currency: Currency) =>
  z.preprocess(
    typedNumber,
    z
      .number('admin.currencies.homeMaxInvalid')
      .int('admin.currencies.homeMaxInvalid')
      .min(0, 'admin.currencies.homeMaxInvalid')
      .max(PRICE_FILTER_RANGES[currency].max, 'admin.currencies.homeMaxInvalid'),
  );

const CurrencyChoice = z.enum(CURRENCIES, 'admin.currencies.currencyInvalid');

/** A calendar day (YYYY-MM-DD) from 2000 up to today (tomorrow allowed: the seller may be ahead of UTC). */
const RatesDate = z
  .string('admin.currencies.ratesDateInvalid')
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'admin.currencies.ratesDateInvalid')
  .refine((day) => {
    const time = Date.parse(`${day}T00:00:00Z`);
    return (
      Number.isFinite(time) &&
      new Date(time).toISOString().startsWith(day) &&
      day >= EARLIEST_RATES_DATE &&
      time <= Date.now() + DAY_MS
    );
  }, 'admin.currencies.ratesDateInvalid');

export const CurrencySettingsSchema = z
  .object({
    baseCurrency: CurrencyChoice,
    rateUSD: Rate,
    rateEUR: Rate,
    rateTRY: Rate,
    ratesDate: RatesDate,
    defaultCurrencyEn: CurrencyChoice,
    defaultCurrencyTr: CurrencyChoice,
    homeMaxUSD: HomeMax('USD'),
    homeMaxEUR: HomeMax('EUR'),
    homeMaxTRY: HomeMax('TRY'),
  })
  .superRefine((settings, context) => {
    // The base is what the other rates count in: one of it is 1.
    if (settings[`rate${settings.baseCurrency}`] !== 1)
      context.addIssue({ code: 'custom', path: [`rate${settings.baseCurrency}`], message: 'admin.currencies.baseRateOne' });
  });

export type CurrencySettings = z.infer<typeof CurrencySettingsSchema>;
export type CurrencySettingsInput = z.input<typeof CurrencySettingsSchema>;

const DEFAULT_CURRENCY_FIELD = { en: 'defaultCurrencyEn', tr: 'defaultCurrencyTr' } as const satisfies Record<
  Language,
  keyof CurrencySettings
>;

export function ratesOf(settings: CurrencySettings): Rates {
  return { USD: settings.rateUSD, EUR: settings.rateEUR, TRY: settings.rateTRY };
}

/** The display currency of an interface language when the URL names none. */
export function defaultCurrencyOf(settings: CurrencySettings, lang: Language): Currency {
  return settings[DEFAULT_CURRENCY_FIELD[lang]];
}

/** The home page's "free or up to" limit in a currency, in whole major units. */
export function homeMaxOf(settings: CurrencySettings, currency: Currency): number {
  return settings[`homeMax${currency}`];
}

/** Whole days since the rates' day (0 on that day). */
export function ratesAgeDays(settings: CurrencySettings, now = Date.now()): number {
  return Math.max(0, Math.floor((now - Date.parse(`${settings.ratesDate}T00:00:00Z`)) / DAY_MS));
}
