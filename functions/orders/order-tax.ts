import { taxOrder, type TaxedOrder } from '../taxes/order-tax.ts';
import { invalid, ok, type Result } from '../../src/lib/result.ts';
import type { CheckoutRequest } from '../../src/lib/checkout.schema.ts';
import type { TaxFields, TaxProps, TaxQuote } from '../../src/lib/checkout-tax.schema.ts';
import { countryOptions } from '../../src/lib/countries.ts';
import { taxSettings } from '../taxes/settings.ts';
import { countryOfIp } from '../taxes/ip-country.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { TaxLine } from '../taxes/tax-rule.ts';
import { priceWithCode, type PricedCourse } from '../discounts/discounts.ts';

/**
 * The tax line of a paid order, computed by the taxes room from what the buyer gave at checkout,
 * and refused when the total differs from the one the buyer was shown: the provider is only ever
 * asked for the total seen before the pay button.
 */
export async function orderTax(
  request: CheckoutRequest,
  courseId: string,
  priceMinor: number,
  clientIp: string,
): Promise<Result<TaxedOrder>> {
  const taxed = await taxOrder({
    courseId,
    priceMinor,
    country: request.country ?? '',
    vatNumber: request.vatNumber ?? '',
    businessName: request.businessName ?? '',
    countryConfirmed: request.confirmCountry ?? false,
    clientIp,
  });
  if (!taxed.ok) return taxed;
  const { line } = taxed.value;
  // The former single rate never changes a price; every other scheme may, so the buyer must have seen it.
  const mustHaveSeen = line.scheme !== 'flat' || request.expectedTotalMinor !== undefined;
  if (mustHaveSeen && request.expectedTotalMinor !== line.grossMinor)
    return invalid('total_changed', 'checkout.tax.totalChanged', { country: 'checkout.tax.totalChanged' });
  return ok(taxed.value);
}

/** The order's tax columns (migration 0033). */
export function taxColumns({ line, evidence }: TaxedOrder) {
  return {
    tax_scheme: line.scheme,
    tax_country: line.taxCountry,
    tax_rate_hundredths: Math.round(line.ratePercent * 100),
    net_minor: line.netMinor,
    tax_minor: line.taxMinor,
    tax_evidence: JSON.stringify(evidence),
  };
}

/** What checkout shows before the pay button for a country and VAT number: the same numbers it will charge. */
export interface TaxQuoteAnswer {
  quote: TaxQuote;
  /** The country the buyer's address points to, when it is not the one chosen: the buyer must confirm theirs. */
  confirmAgainst: string | null;
}

export async function quoteOrderTax(
  course: PricedCourse,
  fields: TaxFields & { discountCode: string },
  buyerEmail: string | undefined,
  clientIp: string,
): Promise<Result<TaxQuoteAnswer>> {
  const price = await priceWithCode(course, fields.discountCode, buyerEmail);
  if (!price.ok) return price;
  const taxed = await taxOrder({
    courseId: course.id,
    priceMinor: price.value.totalMinor,
    country: fields.country,
    vatNumber: fields.vatNumber,
    businessName: fields.businessName,
    countryConfirmed: true,
    clientIp,
  });
  if (!taxed.ok) return taxed;
  const { line, evidence } = taxed.value;
  return ok({
    quote: { ...pickQuote(line), currency: course.currency },
    confirmAgainst: evidence.countryConfirmedAt ? evidence.ipCountry : null,
  });
}

function pickQuote({ scheme, taxCountry, ratePercent, netMinor, taxMinor, grossMinor, inclusive }: TaxLine) {
  return { scheme, taxCountry, ratePercent, netMinor, taxMinor, grossMinor, inclusive };
}

/**
 * What the checkout page gives its form about tax, or null when nothing is asked (a free course, or
 * no tax country set): the countries, the one chosen (posted, else the address's), and its quote.
 */
export async function checkoutTaxProps(
  course: PricedCourse,
  language: Language,
  clientIp: string,
  posted: Partial<Record<'country' | 'vatNumber' | 'businessName', string>>,
  buyerEmail: string | undefined,
): Promise<TaxProps | null> {
  const { settings } = await taxSettings();
  if (!settings.sellerCountry || course.priceMinor === 0) return null;
  const country = (posted.country ?? '').toUpperCase() || ((await countryOfIp(clientIp)) ?? '');
  const fields = {
    country,
    vatNumber: posted.vatNumber ?? '',
    businessName: posted.businessName ?? '',
    confirmCountry: false,
    discountCode: '',
  };
  // A posted VAT number that does not check still shows the consumer's total (its error is shown at the field).
  const answer = await quoteOrderTax(course, fields, buyerEmail, clientIp);
  const consumer = answer.ok ? answer : await quoteOrderTax(course, { ...fields, vatNumber: '' }, buyerEmail, clientIp);
  const untaxed = {
    scheme: 'none',
    taxCountry: '',
    ratePercent: 0,
    netMinor: course.priceMinor,
    taxMinor: 0,
    grossMinor: course.priceMinor,
    inclusive: true,
  };
  return {
    countries: countryOptions(language),
    country,
    vatNumber: fields.vatNumber,
    businessName: fields.businessName,
    quote: consumer.ok ? consumer.value.quote : { ...untaxed, currency: course.currency },
    confirmAgainst: consumer.ok ? consumer.value.confirmAgainst : null,
  };
}
