import { text } from './validation.ts';
import { TYPED_AMOUNT, typedAmountMinor, type NamedPriceTerms } from './pay-what-you-want.ts';
import { namedPriceProblem } from './named-price-problem.ts';

/**
 * The price field of a pay-what-you-want course: as the buyer typed it → minor units, or the first
 * rule it breaks. The one schema for it, used by the checkout island as the buyer types and by the
 * server on every checkout, quote and tax quote (functions/orders/named-price.ts).
 */
export function namedPriceSchema(terms: NamedPriceTerms) {
  return text('checkout.namedPrice.invalid')
    .trim()
    .regex(TYPED_AMOUNT, 'checkout.namedPrice.invalid')
    .transform((typed, context) => {
      const minor = typedAmountMinor(typed) ?? Number.NaN;
      const problem = namedPriceProblem(terms, minor);
      if (problem) context.addIssue({ code: 'custom', message: problem });
      return minor;
    });
}

/** The field as requests carry it (the buyer's own text): checked against the course's terms on the server. */
export const TypedPriceSchema = text('errors.badRequest').max(32, 'checkout.namedPrice.invalid').optional();
