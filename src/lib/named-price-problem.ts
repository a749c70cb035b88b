import { lowestPaidMinor, MAX_NAMED_PRICE_MINOR, type NamedPriceTerms } from './pay-what-you-want.ts';

/** The rule a named price (in minor units) breaks, as a message key; undefined when it may be charged. */
export function namedPriceProblem(terms: NamedPriceTerms, minor: number) {
  if (minor < terms.minimumMinor) return 'checkout.namedPrice.belowMinimum' as const;
  if (minor > MAX_NAMED_PRICE_MINOR) return 'checkout.namedPrice.tooHigh' as const;
  if (minor !== 0 && minor < lowestPaidMinor(terms)) return 'checkout.namedPrice.belowChargeMinimum' as const;
  return undefined;
}
