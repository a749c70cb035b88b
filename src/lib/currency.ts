import type { Language } from '../i18n/languages.ts';
import { formatMajorMoney, moneyFormat } from './money.ts';
import { CURRENCIES, PRICE_FILTER_RANGES, type Currency } from './course-filters.ts';
import { turkishDativeSuffix } from './turkish.ts';

/**
 * Prices in the shopper's display currency (client-safe). A course is always sold and charged in its
 * own currency; these helpers only compare and show approximate amounts at the seller's reference
 * rates (functions/shop/currencies.ts). Money stays in minor units (all three currencies use cents).
 */

/** How many units of each currency one unit of the seller's base currency buys. */
export type Rates = Record<Currency, number>;

const MINOR_UNITS = 100;

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** An amount in minor units of `from`, in minor units of `to` at the reference rates (not rounded). */
export function convertMinor(amountMinor: number, from: Currency, to: Currency, rates: Rates): number {
  return from === to ? amountMinor : (amountMinor * rates[to]) / rates[from];
}

/** An approximate amount: whole units from 100 up ("₺383"), cents below ("$3.51"). */
export function formatApproxMoney(amountMinor: number, currency: Currency, lang: Language): string {
  const major = amountMinor / MINOR_UNITS;
  return major >= 100 ? formatMajorMoney(Math.round(major), currency, lang, 0) : formatMajorMoney(major, currency, lang, 2);
}

/** A whole amount as a limit reads: "$10", "₺1.250" (Turkish grouping on Turkish pages). */
export function formatWholeMoney(amountMajor: number, currency: Currency, lang: Language): string {
  return formatMajorMoney(amountMajor, currency, lang, 0);
}

/**
 * A limit ready for "Up to …" / "… kadar": Turkish puts the dative on the amount as it is read
 * ("₺300'e kadar", "$10'a kadar"); English needs nothing.
 */
export function formatLimit(amountMajor: number, currency: Currency, lang: Language): string {
  const amount = formatWholeMoney(amountMajor, currency, lang);
  return lang === 'tr' ? `${amount}'${turkishDativeSuffix(amountMajor)}` : amount;
}

/** The currency's symbol as the page's locale writes it ("$", "€", "₺"). */
export function currencySymbol(currency: Currency, lang: Language): string {
  return (
    moneyFormat(currency, lang)
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currency
  );
}

/**
 * A price limit carried into another currency (the shopper switched): converted, rounded up to the
 * new slider's step; undefined when it reaches the slider's end (any price).
 */
export function convertLimit(amountMajor: number, from: Currency, to: Currency, rates: Rates): number | undefined {
  const { max, step } = PRICE_FILTER_RANGES[to];
  const converted = convertMinor(amountMajor * MINOR_UNITS, from, to, rates) / MINOR_UNITS;
  const stepped = Math.ceil(Number(converted.toFixed(6)) / step) * step;
  return stepped >= max ? undefined : stepped;
}
