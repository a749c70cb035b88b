import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { displayCurrency, homeMaxPrice, type DisplayCurrency } from '../shop/currencies.ts';
import {
  COURSES_PER_PAGE,
  ALL_LANGUAGES,
  CURRENCIES,
  type CourseFilters,
  type Currency,
  type Difficulty,
} from '../../src/lib/course-filters.ts';
import type { CourseLanguage } from '../../src/lib/course-languages.ts';
import type { BundleSummary, CataloguePageView, CourseSummaryView } from '../../src/lib/course-view.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { ratingColumns, toRatingSummary } from '../reviews/reviews.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { savingAgainst } from '../../src/lib/bundle-price.ts';
import { previewPagesOf, type PreviewPages } from '../../src/lib/admin/course-preview.schema.ts';
import { bundleContentsOf, selectForSale, type BundleContents } from './course-for-sale.ts';

/** What a browser may see of a course: never its PDF location. */
export interface CourseSummary extends CourseSummaryView {
  isFeatured: boolean;
  updatedAt: string;
}

export interface CourseDetail extends CourseSummary {
  instructorBio: string;
  /** The free preview's pages, when the seller offers one (functions/courses/course-previews.ts). */
  previewPages: PreviewPages | null;
  /** A bundle's courses in its order, and whether owning some lowers its price; null for a course. */
  bundleContents: BundleContents | null;
}

export interface CoursePage extends CataloguePageView {
  courses: CourseSummary[];
}

export interface Category {
  slug: string;
  name: string;
  description: string;
  color: string;
  icon: string;
}

export const HOME_COURSE_COUNT = 3;

/**
 * The catalogue for the given filters; without a language filter, courses in the interface language.
 * The price limit and the price order compare every course in the display currency (the URL's, else
 * the language's default) at the seller's reference rates.
 */
export async function listCourses(filters: CourseFilters, uiLanguage: Language): Promise<CoursePage> {
  const page = filters.page ?? 1;
  const display = await displayCurrency(uiLanguage, filters.currency);
  const ordered = (query: ReturnType<typeof selectSummaries>) => {
    if (!filters.sort) return query.orderBy('courses.created_at', 'desc').orderBy('courses.id');
    const direction = filters.sort === 'price-asc' ? 'asc' : 'desc';
    return query.orderBy(inBaseCurrency(display), direction).orderBy('courses.created_at', 'desc').orderBy('courses.id');
  };
  // Page and count run separately: a window count would make PostgreSQL sort every match before LIMIT.
  const [rows, count] = await Promise.all([
    ordered(applyFilters(selectSummaries(uiLanguage, display.currency), filters, uiLanguage, display))
      .limit(COURSES_PER_PAGE)
      .offset((page - 1) * COURSES_PER_PAGE)
      .execute(),
    applyFilters(db().selectFrom('courses'), filters, uiLanguage, display)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.total);
  return {
    courses: rows.map(toSummary),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / COURSES_PER_PAGE)),
  };
}

function applyFilters<Q extends SelectQueryBuilder<Database, 'courses', object>>(
  query: Q,
  filters: CourseFilters,
  uiLanguage: Language,
  display: DisplayCurrency,
): Q {
  const language = filters.language ?? uiLanguage;
  let filtered = query.where('courses.is_active', '=', true);
  if (language !== ALL_LANGUAGES) filtered = filtered.where('courses.language', '=', language);
  if (filters.category) filtered = filtered.where('courses.category', '=', filters.category);
  if (filters.difficulty) filtered = filtered.where('courses.difficulty_level', '=', filters.difficulty);
  if (filters.maxPrice !== undefined) filtered = filtered.where(costsAtMost(filters.maxPrice * 100, display));
  if (filters.search) filtered = filtered.where(matchesSearch(filters.search));
  return filtered as Q;
}

/** A rate as an exact SQL numeric: rates have at most six decimals, which their text keeps. */
const numeric = (rate: number) => sql<string>`${String(rate)}::numeric`;

/** The rate of the row's own currency. */
function rateOfCourseCurrency(display: DisplayCurrency): RawBuilder<string> {
  const cases = CURRENCIES.map((currency) => sql`WHEN ${currency} THEN ${numeric(display.rates[currency])}`);
  return sql<string>`(CASE courses.currency ${sql.join(cases, sql` `)} END)`;
}

/**
 * price × rate(display) / rate(course) ≤ limit, multiplied out so that no division rounds: equivalent
 * limits in two currencies keep exactly the same courses.
 */
function costsAtMost(limitMinor: number, display: DisplayCurrency) {
  return sql<boolean>`courses.price_minor * ${numeric(display.rates[display.currency])} <= ${limitMinor}::numeric * ${rateOfCourseCurrency(display)}`;
}

/** The price in the base currency: the same order as in any display currency. */
function inBaseCurrency(display: DisplayCurrency) {
  return sql<string>`courses.price_minor::numeric / ${rateOfCourseCurrency(display)}`;
}

/**
 * The home page's first courses: active, in the interface language, free or up to the seller's limit
 * in the language's display currency (converted at the reference rates).
 */
export async function listHomeCourses(lang: Language): Promise<CourseSummary[]> {
  const display = await displayCurrency(lang);
  const rows = await selectSummaries(lang, display.currency)
    .where('courses.is_active', '=', true)
    .where('courses.language', '=', lang)
    .where(costsAtMost((await homeMaxPrice(display.currency)) * 100, display))
    .orderBy('courses.created_at', 'desc')
    .orderBy('courses.id')
    .limit(HOME_COURSE_COUNT)
    .execute();
  return rows.map(toSummary);
}

/** Active courses by id, in the order given (a wishlist's order); unknown and inactive ids are left out. */
export async function listCoursesByIds(ids: readonly string[], lang: Language): Promise<CourseSummary[]> {
  if (ids.length === 0) return [];
  const rows = await selectSummaries(lang)
    .where('courses.id', 'in', [...ids])
    .where('courses.is_active', '=', true)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, toSummary(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * An active course, or undefined for an unknown, malformed or inactive id. A bundle sold in `currency`
 * comes priced in it (what checkout charges); otherwise, and a course always, in its own currency.
 */
export async function getActiveCourse(id: string, lang: Language, currency?: Currency): Promise<CourseDetail | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await selectSummaries(lang, currency)
    .select(['courses.instructor_bio', 'courses.preview_first_page', 'courses.preview_last_page', 'courses.pdf_path'])
    .where('courses.id', '=', id)
    .where('courses.is_active', '=', true)
    .executeTakeFirst();
  if (!row) return undefined;
  const previewPages = row.pdf_path === null ? null : previewPagesOf(row);
  return { ...toSummary(row), instructorBio: row.instructor_bio, previewPages, bundleContents: await bundleContentsOf(row) };
}

export async function listActiveCategories(lang: Language): Promise<Category[]> {
  const rows = await db()
    .selectFrom('categories')
    .leftJoin('category_texts', (join) =>
      join.onRef('category_texts.category_id', '=', 'categories.id').on('category_texts.language', '=', lang),
    )
    .select([
      'categories.slug',
      categoryNameIn(lang).as('name'),
      'category_texts.description',
      'categories.color',
      'categories.icon',
    ])
    .where('categories.is_active', '=', true)
    .orderBy('categories.sort_order')
    .orderBy('categories.slug')
    .execute();
  return rows.map((row) => ({ ...row, description: row.description ?? '' }));
}

/**
 * The name, in `lang`, of the category a query has joined as `categories`; its slug while it has
 * none in that language (one added since the admin last named it), never another language's name.
 */
export function categoryNameIn(lang: Language) {
  return sql<string>`coalesce((SELECT name FROM category_texts WHERE category_texts.category_id = categories.id AND category_texts.language = ${lang}), categories.slug)`;
}

/** Every active course id, for the sitemap. */
export async function listActiveCourseIds(): Promise<{ id: string; updatedAt: Date }[]> {
  const rows = await db()
    .selectFrom('courses')
    .select(['id', 'updated_at'])
    .where('is_active', '=', true)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({ id: row.id, updatedAt: row.updated_at }));
}

/**
 * Courses as shops show them in `lang`, priced in `currency`. A bundle (decision 44) reads its text in
 * `lang` and its price in `currency` where it has them; without, the row's own text (its language
 * said by `text_language`, never passed off as `lang`'s) and own price, as a course always.
 */
function selectSummaries(lang: Language, currency?: Currency) {
  return selectForSale(lang, currency)
    .innerJoin('categories', 'categories.slug', 'courses.category')
    .select([
      'courses.category',
      'courses.difficulty_level',
      'courses.duration_minutes',
      'courses.cover_image_url',
      'courses.instructor_name',
      'courses.tags',
      'courses.is_featured',
      'courses.updated_at',
      categoryNameIn(lang).as('category_name'),
      // A bundle's card shows its course count and saving, computed from its courses' prices.
      sql<
        number | null
      >`CASE WHEN courses.kind = 'bundle' THEN (SELECT count(*) FROM bundle_items WHERE bundle_items.bundle_id = courses.id) END`.as(
        'bundle_count',
      ),
      sql<
        number | null
      >`CASE WHEN courses.kind = 'bundle' THEN (SELECT coalesce(sum(items.price_minor), 0) FROM bundle_items JOIN courses items ON items.id = bundle_items.course_id WHERE bundle_items.bundle_id = courses.id) END`.as(
        'bundle_separate_minor',
      ),
      (eb) =>
        eb
          .selectFrom('purchases')
          .select((inner) => inner.fn.countAll<number>().as('count'))
          .whereRef('purchases.course_id', '=', 'courses.id')
          .where('purchases.status', '=', 'completed')
          .as('students'),
    ])
    .select(ratingColumns);
}

/** Case-insensitive, Turkish-aware substring match; the user's % and _ are literal. */
function matchesSearch(search: string) {
  const literal = search.replace(/[\\%_]/g, (char) => `\\${char}`);
  return sql<boolean>`courses.search_text LIKE '%' || fold_search(${literal}) || '%'`;
}

type SummaryRow = {
  id: string;
  title: string;
  description: string;
  text_language: string;
  category: string;
  difficulty_level: string;
  language: string;
  price_minor: number;
  minimum_price_minor: number | null;
  currency: string;
  own_currency: string;
  duration_minutes: number;
  cover_image_url: string | null;
  instructor_name: string;
  tags: string[];
  is_featured: boolean;
  updated_at: Date;
  kind: 'course' | 'bundle';
  category_name: string;
  bundle_count: number | string | null;
  bundle_separate_minor: number | string | null;
  students: number | null;
  rating_average: string | null;
  rating_count: string | null;
};

function toSummary(row: SummaryRow): CourseSummary {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    textLanguage: row.text_language as CourseLanguage,
    category: row.category,
    categoryName: row.category_name,
    difficulty: row.difficulty_level as Difficulty,
    language: row.language as CourseLanguage,
    priceMinor: row.price_minor,
    minimumPriceMinor: row.minimum_price_minor,
    currency: row.currency as Currency,
    durationMinutes: row.duration_minutes,
    coverImageUrl: row.cover_image_url,
    instructorName: row.instructor_name,
    tags: row.tags,
    isFeatured: row.is_featured,
    students: Number(row.students ?? 0),
    rating: toRatingSummary(row.rating_average, row.rating_count),
    updatedAt: row.updated_at.toISOString(),
    bundle: row.kind === 'bundle' ? bundleSummary(row) : null,
  };
}

/**
 * The saving compares like with like: only a price in the currency the bundle's courses are priced in
 * (its own) has one. In another, none is claimed: at reference rates it would be a guess about a
 * charge the buyer never sees (decision 44).
 */
function bundleSummary(row: SummaryRow): BundleSummary {
  const courseCount = Number(row.bundle_count ?? 0);
  if (row.currency !== row.own_currency) return { courseCount, separateMinor: null, savingMinor: null };
  const separateMinor = Number(row.bundle_separate_minor ?? 0);
  return { courseCount, separateMinor, savingMinor: savingAgainst(separateMinor, row.price_minor) };
}
