import { describe, expect, it } from 'vitest';
import { convertLimit, convertMinor, currencySymbol, formatApproxMoney, formatLimit, formatWholeMoney } from './currency.ts';
import { turkishDativeSuffix } from './turkish.ts';
import { getT } from '../i18n/i18n.ts';

const RATES = { USD: 1, EUR: 0.9, TRY: 40 };

describe('display currencies', () => {
  it('convert at the reference rates through the base, in minor units', () => {
    expect(convertMinor(1000, 'USD', 'TRY', RATES)).toBe(40_000);
    expect(convertMinor(14_900, 'TRY', 'USD', RATES)).toBe(372.5);
    expect(convertMinor(900, 'EUR', 'TRY', RATES)).toBe(40_000);
    expect(convertMinor(499, 'EUR', 'EUR', RATES)).toBe(499);
  });

  it('format approximate amounts: whole from 100 up, cents below, the narrow symbol in both languages', () => {
    expect(formatApproxMoney(38_250, 'TRY', 'tr')).toBe('₺383');
    expect(formatApproxMoney(38_250, 'TRY', 'en')).toBe('₺383');
    expect(formatApproxMoney(351, 'USD', 'en')).toBe('$3.51');
    expect(formatApproxMoney(351, 'USD', 'tr')).toBe('$3,51');
    expect(formatApproxMoney(125_000, 'TRY', 'tr')).toBe('₺1.250');
    expect(formatApproxMoney(125_000, 'EUR', 'en')).toBe('€1,250');
    expect(formatWholeMoney(10, 'USD', 'en')).toBe('$10');
  });

  it('name the symbol as each locale writes it', () => {
    expect(currencySymbol('TRY', 'en')).toBe('₺');
    expect(currencySymbol('TRY', 'tr')).toBe('₺');
    expect(currencySymbol('EUR', 'tr')).toBe('€');
    expect(currencySymbol('USD', 'en')).toBe('$');
  });

  it('put the Turkish dative on a limit as the number is read', () => {
    expect(formatLimit(300, 'TRY', 'tr')).toBe("₺300'e");
    expect(formatLimit(10, 'USD', 'tr')).toBe("$10'a");
    expect(formatLimit(10, 'USD', 'en')).toBe('$10');
    expect(formatLimit(1250, 'TRY', 'tr')).toBe("₺1.250'ye");
    const expected: [number, string][] = [
      [0, 'a'],
      [1, 'e'],
      [2, 'ye'],
      [3, 'e'],
      [4, 'e'],
      [5, 'e'],
      [6, 'ya'],
      [7, 'ye'],
      [8, 'e'],
      [9, 'a'],
      [10, 'a'],
      [20, 'ye'],
      [30, 'a'],
      [40, 'a'],
      [50, 'ye'],
      [60, 'a'],
      [70, 'e'],
      [80, 'e'],
      [90, 'a'],
      [100, 'e'],
      [400, 'e'],
      [1000, 'e'],
      [20_000, 'e'],
      [2_000_000, 'a'],
      [3_000_000_000, 'a'],
      [156, 'ya'],
      [19, 'a'],
    ];
    for (const [value, suffix] of expected) expect(`${value}:${turkishDativeSuffix(value)}`).toBe(`${value}:${suffix}`);
  });

  it('read as labels in both languages, with the currency on each', () => {
    expect(getT('en')('catalogue.maxPriceValue', { value: formatLimit(10, 'USD', 'en') })).toBe('Up to $10');
    expect(getT('tr')('catalogue.maxPriceValue', { value: formatLimit(300, 'TRY', 'tr') })).toBe("₺300'e kadar");
    expect(getT('en')('catalogue.maxPriceIn', { symbol: currencySymbol('TRY', 'en') })).toBe('Maximum price (₺)');
    expect(getT('tr')('catalogue.maxPriceIn', { symbol: currencySymbol('USD', 'tr') })).toBe('En yüksek fiyat ($)');
    expect(getT('tr')('home.coursesSubtitle', { value: formatLimit(400, 'TRY', 'tr') })).toBe(
      "Ücretsiz ya da ₺400'e kadar; her biri tek oturuşta biter.",
    );
    expect(getT('en')('home.coursesSubtitle', { value: formatLimit(10, 'EUR', 'en') })).toBe(
      'Free or up to €10, each one finished in a single sitting.',
    );
  });

  it('carry a limit into another currency, up to the new slider’s step, or to any price at its end', () => {
    expect(convertLimit(10, 'USD', 'TRY', RATES)).toBe(400);
    expect(convertLimit(11, 'USD', 'TRY', RATES)).toBe(450);
    expect(convertLimit(400, 'TRY', 'USD', RATES)).toBe(10);
    expect(convertLimit(410, 'TRY', 'EUR', RATES)).toBe(10);
    expect(convertLimit(0, 'USD', 'TRY', RATES)).toBe(0);
    expect(convertLimit(499, 'USD', 'TRY', RATES)).toBeUndefined();
  });
});
