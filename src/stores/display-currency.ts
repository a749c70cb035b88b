import { persistentAtom } from '@nanostores/persistent';
import type { Currency } from '../lib/course-filters.ts';
import { isCurrency } from '../lib/currency.ts';

/**
 * The display currency a shopper chose in the catalogue, kept in this browser only. Pages are cached
 * and shared, so the server never reads it: the browser applies it (catalogue island, "≈" prices).
 */
export const DISPLAY_CURRENCY_STORAGE_KEY = 'displayCurrency';

const $displayCurrency = persistentAtom<string>(DISPLAY_CURRENCY_STORAGE_KEY, '');

export function rememberDisplayCurrency(currency: Currency): void {
  $displayCurrency.set(currency);
}

export function rememberedDisplayCurrency(): Currency | undefined {
  const value = $displayCurrency.get();
  return isCurrency(value) ? value : undefined;
}
