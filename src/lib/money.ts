import { LOCALE_OF, type Language } from '../i18n/languages.ts';

/** Minor units per major unit; all three shop currencies use cents. */
const MINOR_UNITS = 100;
/** The most a course (or a price a buyer names) may cost, in major units. */
export const MAX_PRICE_MAJOR = 100_000;
/** Digits after the decimal point a price may have: the cents. */
export const MINOR_DIGITS = 2;

/**
 * The smallest amount Stripe charges per currency (US$0.50 and €0.50 as Stripe publishes them; the
 * lira's from US$0.50 at a margin, as Stripe measures it in the settlement currency).
 */
export const MINIMUM_CHARGE_MINOR: Record<string, number> = { USD: 50, EUR: 50, TRY: 2500 };

/**
 * The one money format: the currency's own sign in every language ("₺149.00", not "TRY 149.00"),
 * digits and separators in the page language's style. `fractionDigits` fixes the decimals (whole
 * amounts for limits); without it the currency's own (cents).
 */
export function moneyFormat(currency: string, lang: Language, fractionDigits?: number): Intl.NumberFormat {
  const key = `${currency} ${lang} ${fractionDigits ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE_OF[lang], {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formats.set(key, format);
  }
  return format;
}

// Made once per currency, language and precision (a few): making one costs more than using it many times.
const formats = new Map<string, Intl.NumberFormat>();

export function formatMajorMoney(amountMajor: number, currency: string, lang: Language, fractionDigits?: number): string {
  return moneyFormat(currency, lang, fractionDigits).format(amountMajor);
}

/** `formatMoney(499, 'EUR', 'tr')` → `€4,99`. Money is always shown in its own currency. */
export function formatMoney(amountMinor: number, currency: string, lang: Language): string {
  return formatMajorMoney(amountMinor / MINOR_UNITS, currency, lang);
}

export function toMinorUnits(major: number): number {
  // Shift the decimal point in text: 1.005 * 100 is 100.49999… in binary floating point.
  return Math.round(Number(`${major}e2`));
}

export function toMajorUnits(minor: number): number {
  return minor / MINOR_UNITS;
}
