import { LRUCache } from 'lru-cache';
import { invalid, ok, type Result } from '../../src/lib/result.ts';
import { vatNumberCountry } from '../../src/lib/vat-number.ts';
import { normalizeVatNumber } from '../../src/lib/vat-number-format.ts';
import { courseTaxCategory, sellerTaxSettings } from './settings.ts';
import { taxFor, type TaxLine } from './tax-rule.ts';
import { isEuCountry, SHIPPED_RATE_TABLE } from './rate-table.ts';
import { countryOfIp } from './ip-country.ts';
import { checkVatNumberWithVies, type ViesAnswer } from './vies.ts';
import type { TaxCategory } from '../../src/lib/admin/tax-settings.schema.ts';

/**
 * The tax of one order, as checkout computes it before anything is charged (and the checkout form
 * shows it first): the buyer's facts checked (a VAT number's format, its country, VIES's answer), the
 * evidence of where the buyer is gathered, contradicting evidence confirmed by the buyer, then the
 * rule applied. The order's room stores what this returns.
 */
export interface TaxRequest {
  courseId: string;
  /** The seller's price after any discount, in minor units. */
  priceMinor: number;
  /** The country the buyer chose (pre-selected from their address); '' when not asked. */
  country: string;
  vatNumber: string;
  businessName: string;
  /** The buyer ticked "I confirm I live in …" for the country chosen. */
  countryConfirmed: boolean;
  clientIp: string;
}

/** What is kept with the order as evidence of where the buyer is and why this tax applies. */
export interface TaxEvidence {
  billingCountry: string;
  ipCountry: string | null;
  category: TaxCategory;
  tableDate: string;
  /** The listed price included the tax (what receipts show as "of which VAT"). */
  inclusive: boolean;
  vatNumber?: string;
  businessName?: string;
  vies?: ViesAnswer;
  /** The buyer confirmed the country while their address said another. */
  countryConfirmedAt?: string;
  /** The paying card's country, added when the payment is confirmed, where the provider reports it (Stripe). */
  cardCountry?: string;
}

export interface TaxedOrder {
  line: TaxLine;
  evidence: TaxEvidence;
}

// VIES's yes or no holds for a while: the form's quote and the checkout right after ask once.
const viesAnswers = new LRUCache<string, ViesAnswer>({ max: 2_000, ttl: 10 * 60_000 });

export async function taxOrder(request: TaxRequest): Promise<Result<TaxedOrder>> {
  const { rule, settings } = await sellerTaxSettings();
  const country = request.country;
  // The shop's former single rate needs no country; every other rule does.
  if (rule.sellerCountry && !country)
    return invalid('country_required', 'checkout.tax.countryRequired', { country: 'checkout.tax.countryRequired' });
  const vatNumber = normalizeVatNumber(request.vatNumber);
  const checked = vatNumber ? await checkVatNumber(vatNumber, country) : undefined;
  if (checked && !checked.ok) return checked;
  const vies = checked?.value;
  const ipCountry = (await countryOfIp(request.clientIp)) ?? null;
  // Two pieces of evidence must agree: a checked VAT number is one, the address another.
  const contradicts = rule.sellerCountry !== '' && ipCountry !== null && ipCountry !== country && vies?.check !== 'valid';
  if (contradicts && !request.countryConfirmed)
    return invalid('country_unconfirmed', 'checkout.tax.confirmCountryRequired', {
      confirmCountry: 'checkout.tax.confirmCountryRequired',
    });
  const category = courseTaxCategory(settings, request.courseId);
  const line = taxFor(
    {
      country,
      priceMinor: request.priceMinor,
      category,
      vatNumber: vies ? { country, check: vies.check } : undefined,
    },
    rule,
    SHIPPED_RATE_TABLE,
  );
  return ok({
    line,
    evidence: {
      billingCountry: country,
      ipCountry,
      category,
      tableDate: line.tableDate,
      inclusive: line.inclusive,
      ...(vatNumber ? { vatNumber, businessName: request.businessName.trim() } : {}),
      ...(vies ? { vies } : {}),
      ...(contradicts ? { countryConfirmedAt: new Date().toISOString() } : {}),
    },
  });
}

/** A business buyer's number: its format, its country the one chosen, and (in the EU) VIES's answer. */
async function checkVatNumber(vatNumber: string, country: string): Promise<Result<ViesAnswer | undefined>> {
  const numberCountry = vatNumberCountry(vatNumber);
  if (!numberCountry)
    return invalid('vat_number_invalid', 'checkout.tax.vatNumberInvalid', { vatNumber: 'checkout.tax.vatNumberInvalid' });
  if (numberCountry !== country)
    return invalid('vat_number_country', 'checkout.tax.vatNumberCountry', { vatNumber: 'checkout.tax.vatNumberCountry' });
  if (!isEuCountry(country)) return ok(undefined);
  const answer = viesAnswers.get(vatNumber) ?? (await checkVatNumberWithVies(country, vatNumber));
  if (answer.check !== 'unavailable') viesAnswers.set(vatNumber, answer);
  if (answer.check === 'invalid')
    return invalid('vat_number_unknown', 'checkout.tax.vatNumberNotRegistered', {
      vatNumber: 'checkout.tax.vatNumberNotRegistered',
    });
  return ok(answer);
}
