import { MAX_PRICE_MAJOR, MINIMUM_CHARGE_MINOR, MINOR_DIGITS, toMajorUnits, toMinorUnits } from './money.ts';

/**
 * Pay what you want: a course with a minimum lets the buyer name its price at checkout. The rules,
 * without zod so the checkout island can show totals before its schemas load; the field's schema is
 * pay-what-you-want.schema.ts. Client-safe.
 */
export interface NamedPriceTerms {
  /** The seller's minimum, in minor units; 0 lets the buyer enrol for free. */
  minimumMinor: number;
  currency: string;
}

/** The most a buyer may name: the most a seller may ask for a course. */
export const MAX_NAMED_PRICE_MINOR = toMinorUnits(MAX_PRICE_MAJOR);

/** Whole units, then at most the currency's minor digits, after a point or a comma ("12,50" in Turkish). */
export const TYPED_AMOUNT = new RegExp(`^\\d{1,9}([.,]\\d{1,${MINOR_DIGITS}})?$`);

/** The amount a buyer typed, in minor units, or undefined when it is not an amount. */
export function typedAmountMinor(typed: string): number | undefined {
  const trimmed = typed.trim();
  return TYPED_AMOUNT.test(trimmed) ? toMinorUnits(Number(trimmed.replace(',', '.'))) : undefined;
}

/** The least a buyer who pays anything pays: the minimum, or the provider's smallest charge above it. */
export function lowestPaidMinor(terms: NamedPriceTerms): number {
  return Math.max(terms.minimumMinor, MINIMUM_CHARGE_MINOR[terms.currency] ?? 0);
}

/** An amount in minor units as the field shows it: "12.00". */
export function namedPriceText(minor: number): string {
  return toMajorUnits(minor).toFixed(MINOR_DIGITS);
}
