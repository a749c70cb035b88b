import { describe, expect, it } from 'vitest';
import { monthKey, periodRange } from './admin-analytics.ts';

const at = (iso: string) => new Date(iso);

describe('periodRange', () => {
  it('starts at the first day of the month that many months back, current month included (UTC)', () => {
    const now = at('2026-11-22T15:30:00Z');
    expect(periodRange('1month', now).start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(periodRange('3months', now).start.toISOString()).toBe('2026-09-01T00:00:00.000Z');
    expect(periodRange('6months', now).start.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(periodRange('1year', now).start.toISOString()).toBe('2025-12-01T00:00:00.000Z');
  });

  it('lists every month of the range, oldest first', () => {
    expect(periodRange('1month', at('2026-11-22T00:00:00Z')).months).toEqual(['2026-11']);
    expect(periodRange('3months', at('2026-11-22T00:00:00Z')).months).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(periodRange('1year', at('2026-11-22T00:00:00Z')).months).toHaveLength(12);
  });

  it('crosses from January back into December of the previous year', () => {
    const now = at('2027-01-15T08:00:00Z');
    expect(periodRange('1month', now).start.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(periodRange('3months', now).start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(periodRange('3months', now).months).toEqual(['2026-11', '2026-12', '2027-01']);
    expect(periodRange('6months', now).start.toISOString()).toBe('2026-08-01T00:00:00.000Z');
    expect(periodRange('1year', now).start.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(periodRange('1year', now).months.at(0)).toBe('2026-02');
    expect(periodRange('1year', now).months.at(-1)).toBe('2027-01');
  });

  it('handles the last moment of December and the first of January', () => {
    expect(periodRange('1month', at('2026-12-31T23:59:59.999Z')).start.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(periodRange('1month', at('2027-01-01T00:00:00.000Z')).start.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(periodRange('3months', at('2027-01-01T00:00:00.000Z')).months).toEqual(['2026-11', '2026-12', '2027-01']);
  });

  it('handles a leap February (29 days) and a common one', () => {
    expect(periodRange('1month', at('2028-02-29T23:59:59Z')).start.toISOString()).toBe('2028-02-01T00:00:00.000Z');
    expect(periodRange('1month', at('2028-03-01T00:00:00Z')).start.toISOString()).toBe('2028-03-01T00:00:00.000Z');
    expect(periodRange('3months', at('2028-04-30T12:00:00Z')).months).toEqual(['2028-02', '2028-03', '2028-04']);
    expect(periodRange('3months', at('2028-04-30T12:00:00Z')).start.toISOString()).toBe('2028-02-01T00:00:00.000Z');
    // From the 31st of a month: months are counted, never days, so no month is skipped.
    expect(periodRange('3months', at('2027-05-31T12:00:00Z')).months).toEqual(['2027-03', '2027-04', '2027-05']);
    expect(periodRange('1year', at('2029-02-28T12:00:00Z')).start.toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });

  it('uses UTC months whatever the local time zone says', () => {
    // 23:30 on 31 January in New York is already 1 February in UTC.
    expect(periodRange('1month', at('2027-01-31T23:30:00-05:00')).start.toISOString()).toBe('2027-02-01T00:00:00.000Z');
    expect(monthKey(at('2027-01-31T23:30:00-05:00'))).toBe('2027-02');
  });
});
