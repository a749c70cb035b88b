import { beforeAll, describe, expect, it } from 'vitest';
import { listCourses, listHomeCourses } from '../../../functions/catalogue/catalogue.ts';
import {
  BUILT_IN_CURRENCY_SETTINGS,
  readCurrencySettings,
  saveCurrencySettings,
  staleRates,
} from '../../../functions/shop/currencies.ts';
import { db } from '../../../functions/db/database.ts';
import type { CurrencySettings } from '../../../src/lib/admin/currency-settings.schema.ts';
import type { CourseFilters } from '../../../src/lib/course-filters.ts';
import { makeCourse } from '../../support/factories.ts';

/** 1 USD = 0.9 EUR = 40 TRY: $10 ≡ €9 ≡ ₺400 and $5 ≡ €4.50 ≡ ₺200. */
const SETTINGS: CurrencySettings = {
  ...BUILT_IN_CURRENCY_SETTINGS,
  baseCurrency: 'USD',
  rateUSD: 1,
  rateEUR: 0.9,
  rateTRY: 40,
  ratesDate: new Date().toISOString().slice(0, 10),
  homeMaxUSD: 10,
  homeMaxEUR: 9,
  homeMaxTRY: 400,
};

const titles = async (filters: CourseFilters, lang: 'en' | 'tr' = 'en') =>
  (await listCourses(filters, lang)).courses.map((course) => course.title);
const sorted = async (filters: CourseFilters, lang: 'en' | 'tr' = 'en') => (await titles(filters, lang)).sort();

beforeAll(async () => {
  await saveCurrencySettings(SETTINGS);
  // In dollars: free, 3.725, 5 (exactly), 9, 11.25, 13.33.
  await makeCourse({ title: 'Free Start', price_minor: 0, currency: 'USD' });
  await makeCourse({ title: 'Lira 149', price_minor: 14_900, currency: 'TRY' });
  await makeCourse({ title: 'Euro 4.50', price_minor: 450, currency: 'EUR' });
  await makeCourse({ title: 'Dollar 9', price_minor: 900, currency: 'USD' });
  await makeCourse({ title: 'Lira 450', price_minor: 45_000, currency: 'TRY' });
  await makeCourse({ title: 'Euro 12', price_minor: 1200, currency: 'EUR' });
});

describe('the price filter in a display currency', () => {
  it('returns the same courses for equivalent limits in each currency', async () => {
    const upToTen = ['Dollar 9', 'Euro 4.50', 'Free Start', 'Lira 149'];
    expect(await sorted({ maxPrice: 10, currency: 'USD' })).toEqual(upToTen);
    expect(await sorted({ maxPrice: 9, currency: 'EUR' })).toEqual(upToTen);
    expect(await sorted({ maxPrice: 400, currency: 'TRY' })).toEqual(upToTen);
    // A course exactly at the limit is in, in every currency: the comparison never rounds.
    const upToFive = ['Euro 4.50', 'Free Start', 'Lira 149'];
    expect(await sorted({ maxPrice: 5, currency: 'USD' })).toEqual(upToFive);
    expect(await sorted({ maxPrice: 200, currency: 'TRY' })).toEqual(upToFive);
    expect(await sorted({ maxPrice: 0, currency: 'TRY' })).toEqual(['Free Start']);
  });

  it('keeps a course priced in lira under "Up to $5" when its converted price is below it', async () => {
    expect(await titles({ maxPrice: 5, currency: 'USD' })).toContain('Lira 149');
    expect(await titles({ maxPrice: 3, currency: 'USD' })).not.toContain('Lira 149');
    expect(await titles({ maxPrice: 5, currency: 'USD' })).not.toContain('Lira 450');
  });

  it('reads an old link without a currency in the language’s default currency', async () => {
    // English pages default to dollars, Turkish ones to lira (the interface language, not the course's).
    expect(await sorted({ maxPrice: 5 }, 'en')).toEqual(await sorted({ maxPrice: 5, currency: 'USD' }));
    expect(await sorted({ maxPrice: 200, language: 'en' }, 'tr')).toEqual(['Euro 4.50', 'Free Start', 'Lira 149']);
  });

  it('sorts by the converted price, the same order in every display currency', async () => {
    const cheapest = ['Free Start', 'Lira 149', 'Euro 4.50', 'Dollar 9', 'Lira 450', 'Euro 12'];
    for (const currency of ['USD', 'EUR', 'TRY'] as const) {
      expect(await titles({ sort: 'price-asc', currency })).toEqual(cheapest);
      expect(await titles({ sort: 'price-desc', currency })).toEqual([...cheapest].reverse());
    }
    expect(await titles({ sort: 'price-asc', maxPrice: 400, currency: 'TRY' })).toEqual(cheapest.slice(0, 4));
  });

  it('never changes what a course costs: each keeps its own price and currency', async () => {
    const page = await listCourses({ currency: 'TRY', sort: 'price-asc' }, 'en');
    expect(page.courses.map((course) => [course.priceMinor, course.currency])).toEqual([
      [0, 'USD'],
      [14_900, 'TRY'],
      [450, 'EUR'],
      [900, 'USD'],
      [45_000, 'TRY'],
      [1200, 'EUR'],
    ]);
  });
});

describe('the home page’s cheap courses', () => {
  it('are free or up to the seller’s limit in the language’s display currency', async () => {
    const home = async () => (await listHomeCourses('en')).map((course) => course.title).sort();
    expect(await home()).toEqual(['Dollar 9', 'Euro 4.50', 'Lira 149']);
    await saveCurrencySettings({ ...SETTINGS, homeMaxUSD: 4 });
    expect(await home()).toEqual(['Free Start', 'Lira 149']);
    // English pages in lira: ₺150 keeps the ₺149 course and the free one.
    await saveCurrencySettings({ ...SETTINGS, defaultCurrencyEn: 'TRY', homeMaxTRY: 150 });
    expect(await home()).toEqual(['Free Start', 'Lira 149']);
    await saveCurrencySettings(SETTINGS);
  });
});

describe('the reference rates', () => {
  it('are the built-in ones until the seller saves, then the saved ones', async () => {
    const stored = await readCurrencySettings(db());
    expect(stored).toEqual({ settings: SETTINGS, saved: true });
    expect(staleRates(stored)).toBeUndefined();
  });

  it('are flagged when older than 30 days, or still the built-in ones', () => {
    const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);
    const settings = { ...SETTINGS, ratesDate: '2026-10-01' };
    expect(staleRates({ settings, saved: true }, day('2026-10-31'))).toBeUndefined();
    expect(staleRates({ settings, saved: true }, day('2026-11-01'))).toEqual({
      ratesDate: '2026-10-01',
      ageDays: 31,
      saved: true,
    });
    expect(staleRates({ settings: BUILT_IN_CURRENCY_SETTINGS, saved: false }, day('2026-11-25'))).toMatchObject({ saved: false });
  });
});
