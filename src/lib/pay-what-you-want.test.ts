import { describe, expect, it } from 'vitest';
import { lowestPaidMinor, MAX_NAMED_PRICE_MINOR, namedPriceText } from './pay-what-you-want.ts';
import { namedPriceSchema } from './pay-what-you-want.schema.ts';

const named = (typed: string, minimumMinor: number, currency = 'USD') => {
  const parsed = namedPriceSchema({ minimumMinor, currency }).safeParse(typed);
  return parsed.success ? parsed.data : parsed.error.issues[0]?.message;
};

describe('the named price of a pay-what-you-want course', () => {
  it('takes the minimum, more, and a comma as the decimal point, in minor units', () => {
    expect(named('5', 500)).toBe(500);
    expect(named(' 12.50 ', 500)).toBe(1250);
    expect(named('12,5', 500)).toBe(1250);
  });

  it('refuses less than the minimum, more than the maximum and more decimals than the currency has', () => {
    expect(named('4.99', 500)).toBe('checkout.namedPrice.belowMinimum');
    expect(named(String(MAX_NAMED_PRICE_MINOR / 100 + 1), 0)).toBe('checkout.namedPrice.tooHigh');
    expect(named('5.001', 0)).toBe('checkout.namedPrice.invalid');
    expect(named('-5', 0)).toBe('checkout.namedPrice.invalid');
    expect(named('', 0)).toBe('checkout.namedPrice.invalid');
    expect(named('1e3', 0)).toBe('checkout.namedPrice.invalid');
  });

  it('makes 0 a free enrolment when the minimum is 0, and refuses a charge the provider cannot take', () => {
    expect(named('0', 0)).toBe(0);
    expect(named('0.00', 0)).toBe(0);
    expect(named('0.20', 0)).toBe('checkout.namedPrice.belowChargeMinimum');
    expect(named('10', 0, 'TRY')).toBe('checkout.namedPrice.belowChargeMinimum');
    expect(named('25', 0, 'TRY')).toBe(2500);
    expect(lowestPaidMinor({ minimumMinor: 0, currency: 'EUR' })).toBe(50);
    expect(lowestPaidMinor({ minimumMinor: 700, currency: 'EUR' })).toBe(700);
  });

  it('shows an amount as the field takes it back', () => {
    expect(namedPriceText(1250)).toBe('12.50');
    expect(named(namedPriceText(399), 0)).toBe(399);
  });
});
