import { CURRENCIES } from '../lib/course-filters.ts';
import { convertMinor, formatApproxMoney, isCurrency, type Rates } from '../lib/currency.ts';
import { asLanguage } from '../i18n/languages.ts';
import { rememberedDisplayCurrency } from '../stores/display-currency.ts';

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
