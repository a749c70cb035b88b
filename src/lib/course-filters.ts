import { COURSE_LANGUAGES, type CourseLanguage } from './course-languages.ts';

/** Catalogue filters as they live in the query string. Client-safe: shared by page, island and endpoint. */
export const DIFFICULTIES = ['beginner', 'intermediate', 'advanced'] as const;
export const CURRENCIES = ['USD', 'EUR', 'TRY'] as const;
/** Orders besides the default, newest first; prices compare in one currency at the reference rates. */
export const SORTS = ['price-asc', 'price-desc'] as const;
export const MAX_SEARCH_LENGTH = 200;
export const COURSES_PER_PAGE = 24;
export const ALL_LANGUAGES = 'all';

export type Difficulty = (typeof DIFFICULTIES)[number];
export type Currency = (typeof CURRENCIES)[number];
export type Sort = (typeof SORTS)[number];

/** The price filter's slider in each currency, in whole major units: a 0–500 slider means little in lira. */
export const PRICE_FILTER_RANGES: Record<Currency, { max: number; step: number }> = {
  USD: { max: 500, step: 1 },
  EUR: { max: 500, step: 1 },
  TRY: { max: 20_000, step: 50 },
};
/** Links from before display currencies carry a limit without a currency: the old slider went 0 to 500. */
export const LEGACY_MAX_PRICE = 500;
const MAX_PRICE_CEILING = Math.max(...Object.values(PRICE_FILTER_RANGES).map((range) => range.max));

export interface CourseFilters {
  search?: string;
  category?: string;
  /** A course language, or `all`; absent means the interface language. */
  language?: CourseLanguage | typeof ALL_LANGUAGES;
  difficulty?: Difficulty;
  /**
   * Whole major units of `currency`, or (an old link without one) of the page's display currency,
   * 0 to 500. Compared with each course's price converted at the reference rates.
   */
  maxPrice?: number;
  /** The display currency the URL asks for; absent: the interface language's default. */
  currency?: Currency;
  sort?: Sort;
  page?: number;
}

/** One of `values`, or nothing. */
function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return (values as readonly (string | undefined)[]).includes(value) ? (value as T) : undefined;
}

/** A whole number from `min` to `max` (written as JavaScript reads numbers), or nothing. */
function whole(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  return Number.isInteger(number) && number >= min && number <= max ? number : undefined;
}

// Control characters (NUL included, which PostgreSQL refuses in text) never reach a query.
function searchText(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 10_000) return undefined;
  return (
    value
      .replace(/\p{Cc}/gu, ' ')
      .trim()
      .slice(0, MAX_SEARCH_LENGTH) || undefined
  );
}

/**
 * Reads filters from a query string. Anything invalid is dropped, never an error: a bad link still
 * shows a page. Plain code, no zod: the catalogue island parses links in the browser too.
 */
export function parseFilters(params: URLSearchParams): CourseFilters {
  const raw = Object.fromEntries([...params.entries()].filter(([, value]) => value !== ''));
  const category = raw['category'];
  const parsed: { [K in keyof CourseFilters]: CourseFilters[K] | undefined } = {
    search: searchText(raw['search']),
    category:
      category !== undefined && category.length <= 100 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(category) ? category : undefined,
    language: oneOf([...COURSE_LANGUAGES, ALL_LANGUAGES], raw['language']),
    difficulty: oneOf(DIFFICULTIES, raw['difficulty']),
    maxPrice: whole(raw['maxPrice'], 0, MAX_PRICE_CEILING),
    currency: oneOf(CURRENCIES, raw['currency']),
    sort: oneOf(SORTS, raw['sort']),
    page: whole(raw['page'], 1, 10_000),
  };
  // A limit beyond its currency's slider (or, without a currency, the old slider) is no limit.
  const ceiling = parsed.currency ? PRICE_FILTER_RANGES[parsed.currency].max : LEGACY_MAX_PRICE;
  if (parsed.maxPrice !== undefined && parsed.maxPrice > ceiling) parsed.maxPrice = undefined;
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
}

/** The query string for filters, in a stable order; empty filters are left out. */
export function filtersToQuery(filters: CourseFilters): string {
  const params = new URLSearchParams();
  for (const key of ['search', 'category', 'language', 'difficulty', 'maxPrice', 'currency', 'sort', 'page'] as const) {
    const value = filters[key];
    if (value !== undefined && value !== '' && !(key === 'page' && value === 1)) params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** Whether any user-chosen filter is set (the page number, the order and the display currency are not filters). */
export function hasActiveFilters(filters: CourseFilters): boolean {
  return (['search', 'category', 'language', 'difficulty', 'maxPrice'] as const).some((key) => filters[key] !== undefined);
}
