import { describe, expect, it } from 'vitest';
import { convertMinor, parseEcbCsv } from './reference-rates.ts';

describe('the ECB reference rates', () => {
  it('read the day’s CSV and the history as the ECB publishes them, keeping the shop’s currencies', () => {
    const daily = parseEcbCsv('Date, USD, JPY, TRY, \r\n27 November 2026, 1.0512, 160.12, 36.4521, \r\n');
    expect(daily).toEqual({
      ok: true,
      value: [
        { currency: 'USD', day: '2026-11-27', perEuro: 1.0512 },
        { currency: 'TRY', day: '2026-11-27', perEuro: 36.4521 },
      ],
    });
    // A currency with no rate that day ("N/A") is left out, never zero.
    const history = parseEcbCsv('\uFEFFDate,USD,TRY,\n2026-11-27,1.0512,N/A,\n2026-11-26,1.0498,36.3,\n');
    expect(history.ok && history.value.map(({ currency, day }) => `${currency} ${day}`)).toEqual([
      'USD 2026-11-27',
      'USD 2026-11-26',
      'TRY 2026-11-26',
    ]);
    expect(parseEcbCsv('name,amount\nx,1\n')).toMatchObject({ ok: false, code: 'not_ecb_csv' });
    expect(parseEcbCsv('Date,USD\nyesterday,1.05\n')).toMatchObject({ ok: false, code: 'not_ecb_csv' });
  });

  it('convert through the euro, and give nothing when a rate is missing', () => {
    const rates = new Map([
      ['USD', { currency: 'USD', day: '2026-12-31', perEuro: 1.05 }],
      ['TRY', { currency: 'TRY', day: '2026-12-31', perEuro: 36.5 }],
    ]);
    expect(convertMinor(10_500, 'USD', 'EUR', rates)).toBe(10_000);
    expect(convertMinor(1_000, 'EUR', 'TRY', rates)).toBe(36_500);
    expect(convertMinor(1_050, 'USD', 'TRY', rates)).toBe(36_500);
    expect(convertMinor(1_000, 'EUR', 'EUR', new Map())).toBe(1_000);
    expect(convertMinor(1_000, 'USD', 'EUR', new Map())).toBeUndefined();
  });
});
