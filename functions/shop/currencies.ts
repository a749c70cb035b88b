import { db, type Db } from '../db/database.ts';
import { writeSettingsRow } from './settings-row.ts';
import { cachedRead, forgetSettings } from './settings-cache.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG, SHOP_TAG } from '../http/cache-rules.ts';
import { log } from '../log.ts';
import {
  CurrencySettingsSchema,
  RATES_STALE_AFTER_DAYS,
  defaultCurrencyOf,
  homeMaxOf,
  ratesAgeDays,
  ratesOf,
  type CurrencySettings,
} from '../../src/lib/admin/currency-settings.schema.ts';
import type { Currency } from '../../src/lib/course-filters.ts';
import type { Rates } from '../../src/lib/currency.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * The seller's currency settings (reference rates, default display currency per language, the home
 * page's limit per currency): one validated row, cached in memory (settings-cache.ts). A save
 * announces SHOP_TAG and CATALOGUE_TAG, which drop it and every cached page and catalogue answer in
 * every instance.
 */

/**
 * Until the seller saves their own: approximate market rates of 24 November 2025 (USD base), dollars
 * for English, lira for Turkish, and "free or up to" 10 dollars, 10 euros or 400 lira on the home page.
 * The admin overview warns about rates older than 30 days, so a new shop is asked to set its own.
 */
export const BUILT_IN_CURRENCY_SETTINGS: CurrencySettings = {
  baseCurrency: 'USD',
  rateUSD: 1,
  rateEUR: 0.87,
  rateTRY: 42.4,
  ratesDate: '2025-11-24',
  defaultCurrencyEn: 'USD',
  defaultCurrencyTr: 'TRY',
  homeMaxUSD: 10,
  homeMaxEUR: 10,
  homeMaxTRY: 400,
};

export interface StoredCurrencySettings {
  settings: CurrencySettings;
  /** False until the seller saved them (the built-in values are in use). */
  saved: boolean;
}

/** What a page needs to show prices in a display currency. */
export interface DisplayCurrency {
  currency: Currency;
  rates: Rates;
}

export async function currencySettings(): Promise<CurrencySettings> {
  return (await storedCurrencySettings()).settings;
}

export function storedCurrencySettings(): Promise<StoredCurrencySettings> {
  return cachedRead('currencies', (through = db()) => readCurrencySettings(through));
}

export async function readCurrencySettings(database: Db): Promise<StoredCurrencySettings> {
  const row = await database.selectFrom('currency_settings').select('settings').executeTakeFirst();
  if (!row) return { settings: BUILT_IN_CURRENCY_SETTINGS, saved: false };
  const parsed = CurrencySettingsSchema.safeParse(row.settings);
  if (parsed.success) return { settings: parsed.data, saved: true };
  // Edited by hand into something the form would refuse: prices still compare, at the built-in values.
  log.error({ issues: parsed.error.issues.length }, 'currency settings in the database are not valid; using the built-in ones');
  return { settings: BUILT_IN_CURRENCY_SETTINGS, saved: false };
}

/** Saves the settings (already checked by the caller's schema) and purges every cached page. */
export async function saveCurrencySettings(settings: CurrencySettings, database: Db = db()): Promise<void> {
  await database.transaction().execute(async (trx) => {
    await writeSettingsRow(trx, 'currency_settings', settings);
    await announceChange(trx, SHOP_TAG);
    await announceChange(trx, CATALOGUE_TAG);
  });
  forgetSettings();
}

/** The display currency a page renders in: the one its URL names, else its language's default. */
export async function displayCurrency(lang: Language, requested?: Currency): Promise<DisplayCurrency> {
  const settings = await currencySettings();
  return { currency: requested ?? defaultCurrencyOf(settings, lang), rates: ratesOf(settings) };
}

/** The home page's "free or up to" limit in a display currency, in whole major units. */
export async function homeMaxPrice(currency: Currency): Promise<number> {
  return homeMaxOf(await currencySettings(), currency);
}

/** For the admin overview: the rates' day and age when they are older than 30 days (or never set). */
export function staleRates({ settings, saved }: StoredCurrencySettings, now = Date.now()) {
  const ageDays = ratesAgeDays(settings, now);
  return ageDays > RATES_STALE_AFTER_DAYS ? { ratesDate: settings.ratesDate, ageDays, saved } : undefined;
}
