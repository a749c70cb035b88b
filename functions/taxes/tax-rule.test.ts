import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { taxFor, type OrderTaxFacts, type SellerTaxSettings } from './tax-rule.ts';
import { EU_COUNTRIES, SHIPPED_RATE_TABLE, STANDARD_RATES_SOURCE, rateTableAgeDays } from './rate-table.ts';

const table = SHIPPED_RATE_TABLE;

/** A Turkish seller registered for non-Union OSS, prices plus tax: the most common seller of this shop. */
const turkishSeller: SellerTaxSettings = {
  sellerCountry: 'TR',
  flatRatePercent: 0,
  displayMode: 'exclusive',
  underEuThreshold: false,
  registrations: [],
  rateOverrides: [],
};
const germanSeller: SellerTaxSettings = { ...turkishSeller, sellerCountry: 'DE' };
const consumer = (country: string, priceMinor = 1000): OrderTaxFacts => ({ country, priceMinor, category: 'standard' });

/** Standard rates in sales-tax 2.23.0, written out so a new table that changes one fails here and is looked at. */
const EU_STANDARD: Record<string, number> = {
  AT: 20,
  BE: 21,
  BG: 20,
  HR: 25,
  CY: 19,
  CZ: 21,
  DK: 25,
  EE: 24,
  ES: 21,
  FI: 25.5,
  FR: 20,
  DE: 19,
  GR: 24,
  HU: 27,
  IE: 23,
  IT: 22,
  LV: 21,
  LT: 21,
  LU: 17,
  MT: 18,
  NL: 21,
  PL: 23,
  PT: 23,
  RO: 21,
  SK: 23,
  SI: 22,
  SE: 25,
};

describe('the rate table', () => {
  it('lists the 27 member states and dates its standard rates by the sales-tax release installed', () => {
    expect([...EU_COUNTRIES].sort()).toEqual(Object.keys(EU_STANDARD).sort());
    const installed = JSON.parse(readFileSync('node_modules/sales-tax/package.json', 'utf8')) as { version: string };
    // A bumped package must come with its release date here (the date orders record and the overview ages).
    expect(installed.version).toBe(STANDARD_RATES_SOURCE.version);
    expect(table.date <= STANDARD_RATES_SOURCE.date).toBe(true);
    expect(rateTableAgeDays(table, new Date(`${table.date}T12:00:00Z`))).toBe(0);
  });
});

describe('taxFor: an EU consumer of a non-EU seller pays their own country rate', () => {
  it.each(Object.entries(EU_STANDARD))('%s at %s %%', (country, rate) => {
    const line = taxFor(consumer(country), turkishSeller, table);
    expect(line).toMatchObject({ scheme: 'eu_b2c', taxCountry: country, ratePercent: rate, inclusive: false });
    expect(line.taxMinor).toBe(Math.round(rate * 10));
    expect(line.grossMinor).toBe(1000 + line.taxMinor);
  });
});

describe('taxFor: the other places of supply', () => {
  it('reverse-charges a business with a valid VAT number of another member state, at 0 %', () => {
    const line = taxFor({ ...consumer('FR'), vatNumber: { country: 'FR', check: 'valid' } }, germanSeller, table);
    expect(line).toMatchObject({ scheme: 'reverse_charge', taxCountry: 'FR', ratePercent: 0, taxMinor: 0, grossMinor: 1000 });
  });

  it('charges VAT when the VAT number is invalid, or VIES did not answer', () => {
    for (const check of ['invalid', 'unavailable'] as const)
      expect(taxFor({ ...consumer('FR'), vatNumber: { country: 'FR', check } }, germanSeller, table)).toMatchObject({
        scheme: 'eu_b2c',
        ratePercent: 20,
        taxMinor: 200,
      });
  });

  it('charges home VAT to a business of the seller’s own state (no reverse charge at home)', () => {
    const line = taxFor({ ...consumer('DE'), vatNumber: { country: 'DE', check: 'valid' } }, germanSeller, table);
    expect(line).toMatchObject({ scheme: 'domestic', taxCountry: 'DE', ratePercent: 19, taxMinor: 190 });
  });

  it('charges a Turkish buyer of a Turkish seller KDV at 20 %, always included in the price', () => {
    const line = taxFor(consumer('TR', 12000), turkishSeller, table);
    expect(line).toMatchObject({ scheme: 'domestic', taxCountry: 'TR', ratePercent: 20, inclusive: true });
    expect(line).toMatchObject({ netMinor: 10000, taxMinor: 2000, grossMinor: 12000 });
  });

  it('keeps an EU seller under the €10,000 threshold on home VAT, and moves them to the buyer’s rate past it', () => {
    expect(taxFor(consumer('FR'), { ...germanSeller, underEuThreshold: true }, table)).toMatchObject({
      scheme: 'eu_home',
      taxCountry: 'DE',
      ratePercent: 19,
    });
    expect(taxFor(consumer('FR'), germanSeller, table)).toMatchObject({ scheme: 'eu_b2c', ratePercent: 20 });
    // The threshold is for EU sellers only: a Turkish seller owes the buyer's rate from the first sale.
    expect(taxFor(consumer('FR'), { ...turkishSeller, underEuThreshold: true }, table)).toMatchObject({ scheme: 'eu_b2c' });
  });

  it('charges a country where the seller records a registration, and nothing elsewhere', () => {
    const registered = { ...germanSeller, registrations: ['TR', 'GB'] };
    expect(taxFor(consumer('GB'), registered, table)).toMatchObject({ scheme: 'registered', taxCountry: 'GB', ratePercent: 20 });
    expect(taxFor(consumer('TR', 1200), registered, table)).toMatchObject({
      scheme: 'registered',
      ratePercent: 20,
      inclusive: true,
      taxMinor: 200,
    });
    expect(taxFor(consumer('US'), registered, table)).toMatchObject({
      scheme: 'none',
      taxCountry: '',
      ratePercent: 0,
      taxMinor: 0,
      grossMinor: 1000,
    });
    expect(taxFor(consumer('GB'), germanSeller, table)).toMatchObject({ scheme: 'none', taxMinor: 0 });
  });

  it('applies a reduced e-book rate where the table has one, the standard rate where not, and the seller’s overrides first', () => {
    const ebook = (country: string): OrderTaxFacts => ({ ...consumer(country), category: 'ebook' });
    expect(taxFor(ebook('DE'), turkishSeller, table)).toMatchObject({ ratePercent: 7, taxMinor: 70 });
    expect(taxFor(ebook('FR'), turkishSeller, table)).toMatchObject({ ratePercent: 5.5, taxMinor: 55 });
    // Checked against TEDB (ebook-rates.json): Cyprus 3 % since July 2023, Czechia 0 % since 2024, Romania 11 % since August 2025.
    expect(taxFor(ebook('CY'), turkishSeller, table)).toMatchObject({ ratePercent: 3, taxMinor: 30 });
    expect(taxFor(ebook('CZ'), turkishSeller, table)).toMatchObject({ ratePercent: 0, taxMinor: 0 });
    expect(taxFor(ebook('RO'), turkishSeller, table)).toMatchObject({ ratePercent: 11, taxMinor: 110 });
    expect(taxFor(ebook('DK'), turkishSeller, table)).toMatchObject({ ratePercent: 25 });
    const overridden = { ...turkishSeller, rateOverrides: [{ country: 'DK', category: 'ebook' as const, ratePercent: 0 }] };
    expect(taxFor(ebook('DK'), overridden, table)).toMatchObject({ scheme: 'eu_b2c', ratePercent: 0, taxMinor: 0 });
    expect(taxFor(consumer('DK'), overridden, table)).toMatchObject({ ratePercent: 25 });
  });

  it('keeps the former single included rate for a seller who has not set a country', () => {
    const unset = { ...turkishSeller, sellerCountry: '', flatRatePercent: 20, displayMode: 'exclusive' as const };
    expect(taxFor(consumer('FR', 1200), unset, table)).toMatchObject({
      scheme: 'flat',
      ratePercent: 20,
      inclusive: true,
      taxMinor: 200,
      grossMinor: 1200,
    });
  });
});

describe('taxFor: display modes and rounding', () => {
  const inclusive = { ...turkishSeller, displayMode: 'inclusive' as const };

  it.each([
    // [currency, price, country, mode, net, tax, gross]
    ['EUR', 999, 'DE', 'exclusive', 999, 190, 1189], // 189.81 → 190
    ['EUR', 999, 'DE', 'inclusive', 839, 160, 999], // 159.50 → 160 (half up)
    ['EUR', 1, 'DE', 'exclusive', 1, 0, 1], // 0.19 → 0
    ['EUR', 1490, 'FI', 'exclusive', 1490, 380, 1870], // 25.5 %: 379.95 → 380
    ['EUR', 1490, 'FI', 'inclusive', 1187, 303, 1490], // 302.75 → 303
    ['USD', 2500, 'HU', 'exclusive', 2500, 675, 3175],
    ['USD', 4999, 'LU', 'inclusive', 4273, 726, 4999], // 726.35 → 726
    ['TRY', 14900, 'TR', 'exclusive', 12417, 2483, 14900], // KDV stays included whatever the mode
    ['TRY', 39999, 'IE', 'exclusive', 39999, 9200, 49199], // 9199.77 → 9200
  ] as const)('%s %i to %s, %s: net %i + tax %i = %i', (_currency, price, country, mode, net, tax, gross) => {
    const line = taxFor(consumer(country, price), mode === 'inclusive' ? inclusive : turkishSeller, table);
    expect([line.netMinor, line.taxMinor, line.grossMinor]).toEqual([net, tax, gross]);
  });

  it('charges nothing on a free order', () => {
    expect(taxFor(consumer('DE', 0), turkishSeller, table)).toMatchObject({ taxMinor: 0, grossMinor: 0, ratePercent: 19 });
  });
});
