import { CURRENCIES, type Currency } from './course-filters.ts';
import { convertMinor, formatApproxMoney, isCurrency, type Rates } from './currency.ts';
import { asLanguage, type Language } from '../i18n/languages.ts';
import { rememberedDisplayCurrency } from '../stores/display-currency.ts';

/**
 * "≈ ₺383" beside a price in another currency. The server renders it in the page's display currency
 * (the URL's, else the language's default); on pages cached for everyone (course page, home cards)
 * the browser redoes it in the currency the shopper chose in the catalogue, from the data it carries.
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

function ratesFrom(text: string | undefined): Rates | undefined {
  const values = (text ?? '').split(' ').map(Number);
  if (values.length !== CURRENCIES.length || !values.every((rate) => Number.isFinite(rate) && rate > 0)) return undefined;
  return Object.fromEntries(CURRENCIES.map((currency, index) => [currency, values[index]!])) as Rates;
}

/** In the browser: the "≈" prices outside islands follow the shopper's remembered currency. */
export function showApproxPrices(): void {
  const chosen = rememberedDisplayCurrency();
  if (!chosen) return;
  const lang = asLanguage(document.documentElement.lang);
  for (const element of document.querySelectorAll<HTMLElement>('[data-approx-from]')) {
    // An island renders its own from its state.
    if (element.closest('astro-island')) continue;
    const from = element.dataset.approxFrom;
    const minor = Number(element.dataset.approxMinor);
    const rates = ratesFrom(element.dataset.approxRates);
    if (!isCurrency(from) || !Number.isInteger(minor) || !rates) continue;
    element.hidden = minor === 0 || from === chosen;
    const amount = element.querySelector('[data-approx-amount]');
    if (amount) amount.textContent = formatApproxMoney(convertMinor(minor, from, chosen, rates), chosen, lang);
  }
}
