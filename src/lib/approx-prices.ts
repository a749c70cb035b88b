import { CURRENCIES, type Currency } from './course-filters.ts';
import { convertMinor, formatApproxMoney, type Rates } from './currency.ts';
import type { Language } from '../i18n/languages.ts';

/**
 * "≈ ₺383" beside a price in another currency. The server renders it in the page's display currency
 * (the URL's, else the language's default); on pages cached for everyone (course page, home cards)
 * the browser redoes it in the currency the shopper chose in the catalogue, from the data it carries
 * (src/scripts/approx-prices.ts).
 */
export interface ApproxPrice {
  /** Hidden when the course is priced in the display currency (or free). */
  hidden: boolean;
  text: string;
  data: Record<'data-approx-minor' | 'data-approx-from' | 'data-approx-rates', string>;
}

export function approxPrice(
  course: { priceMinor: number; currency: Currency },
  display: { currency: Currency; rates: Rates },
  lang: Language,
): ApproxPrice {
  return {
    hidden: course.priceMinor === 0 || course.currency === display.currency,
    text: formatApproxMoney(
      convertMinor(course.priceMinor, course.currency, display.currency, display.rates),
      display.currency,
      lang,
    ),
    data: {
      'data-approx-minor': String(course.priceMinor),
      'data-approx-from': course.currency,
      'data-approx-rates': CURRENCIES.map((currency) => display.rates[currency]).join(' '),
    },
  };
}
