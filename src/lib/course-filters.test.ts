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
