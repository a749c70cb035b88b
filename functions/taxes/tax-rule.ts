import { isEuCountry, tableRate, type RateTable } from './rate-table.ts';
import type { RateOverride, TaxCategory, TaxSettings } from '../../src/lib/admin/tax-settings.schema.ts';

/**
 * Which tax an order carries: a pure rule over the order's facts, the seller's tax settings and the
 * rate table, with no I/O (the checkout gathers the facts and the order's room stores the answer).
 *
 * In order: a valid VAT number of another EU state than the seller's → reverse charge (0 %); the
 * seller's own country → its rate; another EU state → that state's rate (B2C place of supply), or the
 * seller's home rate while an EU seller records that its cross-border sales stay under the €10,000
 * threshold; a country where the seller records a registration (Türkiye's KDV, UK VAT…) → its rate;
 * anywhere else → no tax. A seller who has not set a country keeps the shop's former single rate,
 * included in every price.
 */

/** Why a rate applies; stored on the order and grouped by in the reports. */
export type TaxScheme = 'flat' | 'domestic' | 'eu_b2c' | 'eu_home' | 'reverse_charge' | 'registered' | 'none';

/** `inclusive`: the course's price is what a consumer pays, tax included; `exclusive`: tax is added on top. */
export type TaxDisplayMode = TaxSettings['displayMode'];

/** The VAT number's check: only a `valid` answer reverse-charges; an unanswered check charges VAT (and is recorded). */
export type VatCheck = 'valid' | 'invalid' | 'unavailable';

export interface OrderTaxFacts {
  /** The buyer's country as the evidence settles it (ISO 3166-1 alpha-2). */
  country: string;
  /** The price the seller set, after any discount, in the currency's minor units. */
  priceMinor: number;
  category: TaxCategory;
  /** A business buyer's VAT number: its country (GR for EL) and what the check said. */
  vatNumber?: { country: string; check: VatCheck } | undefined;
}

export interface SellerTaxSettings {
  /** '' until the seller sets it: the shop then charges `flatRatePercent`, included in prices. */
  sellerCountry: string;
  flatRatePercent: number;
  displayMode: TaxDisplayMode;
  /** An EU seller whose cross-border EU sales of e-services stay under €10,000 a year charges home VAT. */
  underEuThreshold: boolean;
  /** Countries outside home where the seller is registered to charge tax (e.g. TR, GB). */
  registrations: readonly string[];
  rateOverrides: readonly RateOverride[];
}

export interface TaxLine {
  scheme: TaxScheme;
  /** The country whose tax this is ('' for flat and none). */
  taxCountry: string;
  ratePercent: number;
  /** What the tax is charged on, the tax, and what the buyer pays: net + tax = gross, in minor units. */
  netMinor: number;
  taxMinor: number;
  grossMinor: number;
  /** Whether the price already included the tax (the buyer pays the listed price). */
  inclusive: boolean;
  tableDate: string;
}

const TURKEY = 'TR';

export function taxFor(facts: OrderTaxFacts, settings: SellerTaxSettings, table: RateTable): TaxLine {
  const { scheme, taxCountry } = placeOfTax(facts, settings);
  const ratePercent = rateFor(scheme, taxCountry, facts.category, settings, table);
  // Turkish prices always include KDV; the former single rate was always included too.
  const inclusive = scheme === 'flat' || taxCountry === TURKEY || settings.displayMode === 'inclusive';
  return {
    scheme,
    taxCountry,
    ratePercent,
    inclusive,
    tableDate: table.date,
    ...amounts(facts.priceMinor, ratePercent, inclusive),
  };
}

function placeOfTax(facts: OrderTaxFacts, settings: SellerTaxSettings): { scheme: TaxScheme; taxCountry: string } {
  const home = settings.sellerCountry;
  if (!home) return { scheme: 'flat', taxCountry: '' };
  const buyer = facts.country;
  if (isEuCountry(buyer) && facts.vatNumber?.check === 'valid' && facts.vatNumber.country !== home)
    return { scheme: 'reverse_charge', taxCountry: buyer };
  if (buyer === home) return { scheme: 'domestic', taxCountry: home };
  if (isEuCountry(buyer))
    return isEuCountry(home) && settings.underEuThreshold
      ? { scheme: 'eu_home', taxCountry: home }
      : { scheme: 'eu_b2c', taxCountry: buyer };
  if (settings.registrations.includes(buyer)) return { scheme: 'registered', taxCountry: buyer };
  return { scheme: 'none', taxCountry: '' };
}

function rateFor(
  scheme: TaxScheme,
  country: string,
  category: TaxCategory,
  settings: SellerTaxSettings,
  table: RateTable,
): number {
  if (scheme === 'flat') return settings.flatRatePercent;
  if (scheme === 'reverse_charge' || scheme === 'none') return 0;
  const override = settings.rateOverrides.find((entry) => entry.country === country && entry.category === category);
  return override?.ratePercent ?? tableRate(table, country, category);
}

/**
 * Net, tax and gross in whole minor units of the order's currency, rounded half up once, on the tax:
 * exclusive 9.99 at 19 % → 1.90 tax (1.8981), 11.89 gross; inclusive 12.00 at 20 % → 2.00 tax, 10.00 net.
 */
export function amounts(
  priceMinor: number,
  ratePercent: number,
  inclusive: boolean,
): Pick<TaxLine, 'netMinor' | 'taxMinor' | 'grossMinor'> {
  if (ratePercent === 0 || priceMinor === 0) return { netMinor: priceMinor, taxMinor: 0, grossMinor: priceMinor };
  if (inclusive) {
    const taxMinor = roundHalfUp((priceMinor * ratePercent) / (100 + ratePercent));
    return { netMinor: priceMinor - taxMinor, taxMinor, grossMinor: priceMinor };
  }
  const taxMinor = roundHalfUp((priceMinor * ratePercent) / 100);
  return { netMinor: priceMinor, taxMinor, grossMinor: priceMinor + taxMinor };
}

/** Half up on the exact decimal: 189.81 → 190, 12.5 → 13, without 1.005-style float surprises. */
function roundHalfUp(value: number): number {
  return Math.round(Number(value.toFixed(6)));
}
