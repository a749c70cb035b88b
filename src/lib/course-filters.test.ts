import { describe, expect, it } from 'vitest';
import { filtersToQuery, hasActiveFilters, parseFilters } from './course-filters.ts';

const parse = (query: string) => parseFilters(new URLSearchParams(query));

describe('catalogue filters in the query string', () => {
  it('round-trip every filter', () => {
    const query = '?search=b%C3%BCt%C3%A7e+plan%C4%B1&category=business&language=tr&difficulty=beginner&maxPrice=25&page=2';
    const filters = parse(query);
    expect(filters).toEqual({
      search: 'bütçe planı',
      category: 'business',
      language: 'tr',
      difficulty: 'beginner',
      maxPrice: 25,
      page: 2,
    });
    expect(filtersToQuery(filters)).toBe(query);
  });
  it('drop invalid values instead of failing', () => {
    expect(parse('maxPrice=-5&difficulty=expert&category=<script>&language=de&page=0')).toEqual({});
    expect(parse('maxPrice=abc')).toEqual({});
    expect(parse('maxPrice=501')).toEqual({});
    expect(parse('maxPrice=2.5')).toEqual({});
  });
  it('trim and cap the search text', () => {
    expect(parse(`search=${'a'.repeat(10_000)}`).search).toHaveLength(200);
    expect(parse('search=%20%20')).toEqual({});
    expect(parse(`search=${'a'.repeat(20_000)}`)).toEqual({});
  });
  it('know whether a filter is active', () => {
    expect(hasActiveFilters({})).toBe(false);
    expect(hasActiveFilters({ page: 3 })).toBe(false);
    expect(hasActiveFilters({ maxPrice: 0 })).toBe(true);
    expect(filtersToQuery({})).toBe('');
    expect(filtersToQuery({ page: 1 })).toBe('');
  });
});

describe('display currency and order in the query string', () => {
  it('carry the currency with the amount, and the order', () => {
    const filters = parse('maxPrice=300&currency=TRY&sort=price-asc');
    expect(filters).toEqual({ maxPrice: 300, currency: 'TRY', sort: 'price-asc' });
    expect(filtersToQuery(filters)).toBe('?maxPrice=300&currency=TRY&sort=price-asc');
    expect(hasActiveFilters({ currency: 'TRY', sort: 'price-desc' })).toBe(false);
  });
  it('fit the limit to its currency’s slider; an old link without a currency keeps the old 0 to 500', () => {
    expect(parse('maxPrice=20000&currency=TRY')).toEqual({ maxPrice: 20_000, currency: 'TRY' });
    expect(parse('maxPrice=600&currency=TRY')).toEqual({ maxPrice: 600, currency: 'TRY' });
    expect(parse('maxPrice=600&currency=USD')).toEqual({ currency: 'USD' });
    expect(parse('maxPrice=600')).toEqual({});
    expect(parse('maxPrice=5')).toEqual({ maxPrice: 5 });
  });
  it('drop unknown currencies and orders', () => {
    expect(parse('currency=GBP&sort=random')).toEqual({});
    expect(parse('currency=try&maxPrice=10')).toEqual({ maxPrice: 10 });
    expect(parse('currency=%00&sort=%27%3B--')).toEqual({});
  });
});
