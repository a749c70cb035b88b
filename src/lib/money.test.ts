import { describe, expect, it } from 'vitest';
import { formatMoney, toMajorUnits, toMinorUnits } from './money.ts';

describe('formatMoney', () => {
  it("writes each currency with its own sign in every language, digits in the page language's style", () => {
    expect(formatMoney(499, 'USD', 'en')).toBe('$4.99');
    expect(formatMoney(450, 'EUR', 'en')).toBe('€4.50');
    expect(formatMoney(14900, 'TRY', 'en')).toBe('₺149.00');
    expect(formatMoney(123456, 'TRY', 'en')).toBe('₺1,234.56');
    expect(formatMoney(499, 'USD', 'tr')).toBe('$4,99');
    expect(formatMoney(14900, 'TRY', 'tr')).toBe('₺149,00');
    expect(formatMoney(123456, 'EUR', 'tr')).toBe('€1.234,56');
  });
  it('converts between major and minor units without float drift', () => {
    expect(toMinorUnits(4.99)).toBe(499);
    expect(toMinorUnits(0.29)).toBe(29);
    expect(toMinorUnits(1.005)).toBe(101);
    expect(toMajorUnits(14900)).toBe(149);
  });
});
