import { z } from './zod.ts';
import { text } from './validation.ts';
import { isCountryCode } from './countries.ts';
import { uuidSchema } from './uuid.schema.ts';
import { LanguageSchema } from './validation.ts';
import { normalizeVatNumber } from './vat-number-format.ts';
import { TypedPriceSchema } from './pay-what-you-want.schema.ts';
import { CURRENCIES } from './course-filters.ts';

/** The currency of the price the buyer saw: a bundle is charged in it where it has one (decision 44); a course always in its own. */
export const ChargedCurrencySchema = z.enum(CURRENCIES, 'errors.badRequest').optional();

/**
 * What checkout asks for the tax when the seller has set a tax country (Admin → Settings → Taxes):
 * the buyer's country, optionally a business name and VAT number, the confirmation of the country
 * when the evidence disagrees, and the total the buyer was shown (the server refuses to charge
 * another). The VAT number's format and VIES's answer are checked on the server, at their field.
 */
export const TaxFieldsSchema = z.object({
  country: text('errors.badRequest')
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value): boolean => value === '' || isCountryCode(value), 'checkout.tax.countryRequired')
    .default(''),
  businessName: text('errors.badRequest').trim().max(200, 'validation.tooLong').default(''),
  vatNumber: text('errors.badRequest').max(40, 'checkout.tax.vatNumberInvalid').transform(normalizeVatNumber).default(''),
  confirmCountry: z.boolean('errors.badRequest').default(false),
});

export type TaxFields = z.infer<typeof TaxFieldsSchema>;

/** The total shown before the pay button, in minor units: what the provider may be asked for. */
export const ExpectedTotalSchema = z.number('errors.badRequest').int('errors.badRequest').min(0, 'errors.badRequest');

/** The checkout form's question "what will this cost me there?" (changes nothing). */
export const TaxQuoteRequestSchema = TaxFieldsSchema.extend({
  courseId: uuidSchema('errors.badRequest'),
  language: LanguageSchema,
  currency: ChargedCurrencySchema,
  discountCode: text('errors.badRequest').trim().max(32, 'checkout.codeUnknown').default(''),
  price: TypedPriceSchema,
});

/** The tax line a quote shows: the same numbers checkout will charge. */
export interface TaxQuote {
  scheme: string;
  taxCountry: string;
  ratePercent: number;
  netMinor: number;
  taxMinor: number;
  grossMinor: number;
  inclusive: boolean;
  currency: string;
}

/** What the checkout page tells the form about tax, when the seller has set a tax country. */
export interface TaxProps {
  /** Every country with its name in the page's language, sorted by the server. */
  countries: { code: string; name: string }[];
  /** The country chosen: the posted one, or the one the buyer's address points to. */
  country: string;
  vatNumber: string;
  businessName: string;
  /** The tax and total for that country, computed by the server. */
  quote: TaxQuote;
  /** The address's country, when it contradicts the one chosen (the buyer must confirm). */
  confirmAgainst: string | null;
}
