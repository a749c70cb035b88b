import { z } from './zod.ts';
import { COURSE_LANGUAGES, type CourseLanguage } from './course-languages.ts';

/** Catalogue filters as they live in the query string. Client-safe: shared by page, island and endpoint. */
export const DIFFICULTIES = ['beginner', 'intermediate', 'advanced'] as const;
export const CURRENCIES = ['USD', 'EUR', 'TRY'] as const;
export const MAX_PRICE_LIMIT = 500;
export const MAX_SEARCH_LENGTH = 200;
export const COURSES_PER_PAGE = 24;
export const ALL_LANGUAGES = 'all';

export type Difficulty = (typeof DIFFICULTIES)[number];
export type Currency = (typeof CURRENCIES)[number];

export interface CourseFilters {
  search?: string;
  category?: string;
  /** A course language, or `all`; absent means the interface language. */
  language?: CourseLanguage | typeof ALL_LANGUAGES;
  difficulty?: Difficulty;
  /** Whole major units, 0 to 500. */
  maxPrice?: number;
  page?: number;
}

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const FiltersSchema = z.object({
  // Control characters (NUL included, which PostgreSQL refuses in text) never reach a query.
  search: optional(
    z
      .string()
      .max(10_000)
      .transform(
        (value) =>
          value
            .replace(/\p{Cc}/gu, ' ')
            .trim()
            .slice(0, MAX_SEARCH_LENGTH) || undefined,
      ),
  ),
  category: optional(
    z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      .max(100),
  ),
  language: optional(z.enum([...COURSE_LANGUAGES, ALL_LANGUAGES])),
  difficulty: optional(z.enum(DIFFICULTIES)),
  maxPrice: optional(z.coerce.number().int().min(0).max(MAX_PRICE_LIMIT)),
  page: optional(z.coerce.number().int().min(1).max(10_000)),
});

/** Reads filters from a query string. Anything invalid is dropped, never an error: a bad link still shows a page. */
export function parseFilters(params: URLSearchParams): CourseFilters {
  const raw = Object.fromEntries([...params.entries()].filter(([, value]) => value !== ''));
  const parsed = FiltersSchema.parse(raw);
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
}

/** The query string for filters, in a stable order; empty filters are left out. */
export function filtersToQuery(filters: CourseFilters): string {
  const params = new URLSearchParams();
  for (const key of ['search', 'category', 'language', 'difficulty', 'maxPrice', 'page'] as const) {
    const value = filters[key];
    if (value !== undefined && value !== '' && !(key === 'page' && value === 1)) params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** Whether any user-chosen filter is set (the page number is not a filter). */
export function hasActiveFilters(filters: CourseFilters): boolean {
  return (['search', 'category', 'language', 'difficulty', 'maxPrice'] as const).some((key) => filters[key] !== undefined);
}
