import salesTaxRates from 'sales-tax/res/sales_tax_rates.json' with { type: 'json' };
import regions from 'sales-tax/res/region_countries.json' with { type: 'json' };
import ebookRates from './ebook-rates.json' with { type: 'json' };
import type { TaxCategory } from '../../src/lib/admin/tax-settings.schema.ts';

/**
 * The tax rates the shop charges, per country and tax category, from two dated sources: standard
 * rates from the `sales-tax` package's table (offline, maintained upstream; its date is the release
 * date of the version pinned here, checked by a test so a version bump updates it), and the reduced
 * rates some EU states apply to e-books from `ebook-rates.json` in this folder (its own source and
 * date). A country missing from a table has rate 0 (standard) or its standard rate (e-book).
 */
/** Which `sales-tax` release the standard rates come from, and the day it was published. */
export const STANDARD_RATES_SOURCE = { package: 'sales-tax', version: '2.23.0', date: '2026-05-19' } as const;

/** Rates in percent (19 for 19 %), by ISO 3166-1 alpha-2 country code. */
export interface RateTable {
  standard: Readonly<Record<string, number>>;
  ebook: Readonly<Record<string, number>>;
  /** The older of the two sources' dates (YYYY-MM-DD): what an order records and the overview ages. */
  date: string;
}

/** The EU member states (the `sales-tax` package's region list; Greece is GR here, EL only in VAT numbers). */
export const EU_COUNTRIES: readonly string[] = regions.EU;

export function isEuCountry(country: string): boolean {
  return EU_COUNTRIES.includes(country);
}

type SalesTaxEntry = { type: string; rate: number };

function standardRates(): Record<string, number> {
  return Object.fromEntries(
    Object.entries(salesTaxRates as Record<string, SalesTaxEntry>).map(([country, entry]) => [
      country,
      // 0.19 → 19; 0.055 → 5.5 (no float tails such as 19.000000000000004).
      Math.round(entry.rate * 10_000) / 100,
    ]),
  );
}

/** The table as shipped. */
export const SHIPPED_RATE_TABLE: RateTable = {
  standard: standardRates(),
  ebook: ebookRates.rates,
  date: [STANDARD_RATES_SOURCE.date, ebookRates.date].sort()[0]!,
};

/** Where the e-book rates come from, for the settings page. */
export const EBOOK_RATES_SOURCE = { source: ebookRates.source, date: ebookRates.date } as const;

/** A table older than this many days is flagged on the admin overview. */
export const RATE_TABLE_STALE_AFTER_DAYS = 183;

export function rateTableAgeDays(table: RateTable, now = new Date()): number {
  return Math.floor((now.getTime() - Date.parse(`${table.date}T00:00:00Z`)) / 86_400_000);
}

/** The table's rate for a country and category, before the seller's overrides. */
export function tableRate(table: RateTable, country: string, category: TaxCategory): number {
  const standard = table.standard[country] ?? 0;
  return category === 'ebook' ? (table.ebook[country] ?? standard) : standard;
}

/** What the settings page says about the shipped table: its day, whether it is stale, the e-book rates' source. */
export function taxTableStatus(now = new Date()) {
  return {
    date: SHIPPED_RATE_TABLE.date,
    stale: rateTableAgeDays(SHIPPED_RATE_TABLE, now) > RATE_TABLE_STALE_AFTER_DAYS,
    ebookSource: `${EBOOK_RATES_SOURCE.source}, ${EBOOK_RATES_SOURCE.date}`,
  };
}
