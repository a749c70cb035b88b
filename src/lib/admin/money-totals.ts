import { CURRENCIES } from '../course-filters.ts';
import { formatMoney } from '../money.ts';
import type { Language } from '../../i18n/languages.ts';

/** An amount in one currency. Totals are kept per currency: never summed across currencies. */
export interface CurrencyAmount {
  currency: string;
  amountMinor: number;
}

/** Fixed currency order (USD, EUR, TRY, then any other alphabetically), zero amounts dropped. */
export function sortedTotals(totals: CurrencyAmount[]): CurrencyAmount[] {
  const rank = (currency: string) => {
    const index = (CURRENCIES as readonly string[]).indexOf(currency);
    return index === -1 ? CURRENCIES.length : index;
  };
  return totals
    .filter((total) => total.amountMinor > 0)
    .sort((a, b) => rank(a.currency) - rank(b.currency) || a.currency.localeCompare(b.currency));
}

/** `$12.97 · €4.50 · ₺149,00`; `—` when there is nothing. */
export function formatTotals(totals: CurrencyAmount[], lang: Language): string {
  const parts = sortedTotals(totals).map((total) => formatMoney(total.amountMinor, total.currency, lang));
  return parts.length ? parts.join(' · ') : '—';
}

/** Parses a `json_agg` of `{currency, amountMinor}` objects (or null) into totals. */
export function totalsFromJson(value: unknown): CurrencyAmount[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (item): item is { currency: string; amountMinor: number | string } =>
        typeof item === 'object' && item !== null && 'currency' in item,
    )
    .map((item) => ({ currency: item.currency, amountMinor: Number(item.amountMinor) }));
}
