import { describe, expect, it } from 'vitest';
import { bundlePriceFor, bundleSaving } from './bundle-price.ts';

const items = [
  { courseId: 'a', priceMinor: 1000 },
  { courseId: 'b', priceMinor: 500 },
  { courseId: 'c', priceMinor: 500 },
];
const bundle = { priceMinor: 1500, reducesOwned: true };

describe('bundle prices', () => {
  it('computes the separate total and the saving, never a negative saving', () => {
    expect(bundleSaving(1500, items)).toEqual({ separateMinor: 2000, savingMinor: 500 });
    expect(bundleSaving(2500, items)).toEqual({ separateMinor: 2000, savingMinor: 0 });
  });

  it('takes off the owned courses’ share of the bundle price, keeping the saving on the rest', () => {
    expect(bundlePriceFor(bundle, items, new Set())).toEqual({ priceMinor: 1500, ownedCourseIds: [] });
    // a is half of the separate total: half the bundle's price goes.
    expect(bundlePriceFor(bundle, items, new Set(['a']))).toEqual({ priceMinor: 750, ownedCourseIds: ['a'] });
    expect(bundlePriceFor(bundle, items, new Set(['b', 'x']))).toEqual({ priceMinor: 1125, ownedCourseIds: ['b'] });
  });

  it('charges the full price when the seller turned the reduction off, and nothing when every course is owned', () => {
    expect(bundlePriceFor({ ...bundle, reducesOwned: false }, items, new Set(['a'])).priceMinor).toBe(1500);
    expect(bundlePriceFor(bundle, items, new Set(['a', 'b', 'c']))).toEqual({ priceMinor: 0, ownedCourseIds: ['a', 'b', 'c'] });
  });

  it('splits evenly when the courses are all free apart', () => {
    const free = items.map((item) => ({ ...item, priceMinor: 0 }));
    expect(bundlePriceFor({ priceMinor: 900, reducesOwned: true }, free, new Set(['a'])).priceMinor).toBe(600);
  });
});
