import { sql } from 'kysely';
import { db } from '../db/database.ts';
import type { Currency } from '../../src/lib/course-filters.ts';
import type { CourseLanguage } from '../../src/lib/course-languages.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * A course as a sale needs it (checkout, its quotes), and what a bundle contains: the part of the
 * catalogue (catalogue.ts) that prices, without a course page's counts, ratings and category.
 */
export interface BundleContents {
  reducesOwned: boolean;
  courses: BundleCourse[];
  /** Every price the seller set, one per currency it is sold in (its own first). */
  prices: { currency: Currency; priceMinor: number }[];
}

export interface BundleCourse {
  id: string;
  title: string;
  priceMinor: number;
  /** The bundle's own currency (its courses share it, admin-bundles.ts). */
  currency: Currency;
  isActive: boolean;
}

/** An active course as a checkout prices it: no counts, ratings or category (a course page's). */
export interface CourseForSale {
  id: string;
  title: string;
  textLanguage: CourseLanguage;
  priceMinor: number;
  minimumPriceMinor: number | null;
  currency: Currency;
  bundleContents: BundleContents | null;
}

/** As getActiveCourse, for a checkout and its quotes: one light statement (a course page's reads counts and ratings). */
export async function courseForSale(id: string, lang: Language, currency?: Currency): Promise<CourseForSale | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await selectForSale(lang, currency)
    .where('courses.id', '=', id)
    .where('courses.is_active', '=', true)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    title: row.title,
    textLanguage: row.text_language as CourseLanguage,
    priceMinor: row.price_minor,
    minimumPriceMinor: row.minimum_price_minor,
    currency: row.currency as Currency,
    bundleContents: await bundleContentsOf(row),
  };
}

export async function bundleContentsOf(row: {
  id: string;
  kind: 'course' | 'bundle';
  bundle_reduces_owned: boolean;
  own_currency: string;
}): Promise<BundleContents | null> {
  if (row.kind !== 'bundle') return null;
  return {
    reducesOwned: row.bundle_reduces_owned,
    courses: await listBundleCourses(row.id),
    prices: await listBundlePrices(row.id, row.own_currency),
  };
}

/** A bundle's courses in the seller's order (an inactive one is still granted: the buyer paid for it). */
export async function listBundleCourses(bundleId: string): Promise<BundleCourse[]> {
  const rows = await db()
    .selectFrom('bundle_items')
    .innerJoin('courses', 'courses.id', 'bundle_items.course_id')
    .select(['courses.id', 'courses.title', 'courses.price_minor', 'courses.currency', 'courses.is_active'])
    .where('bundle_items.bundle_id', '=', bundleId)
    .orderBy('bundle_items.position')
    .orderBy('courses.title')
    .execute();
  return rows.map((item) => ({
    id: item.id,
    title: item.title,
    priceMinor: item.price_minor,
    currency: item.currency as Currency,
    isActive: item.is_active,
  }));
}

async function listBundlePrices(bundleId: string, ownCurrency: string): Promise<BundleContents['prices']> {
  const rows = await db()
    .selectFrom('bundle_prices')
    .select(['currency', 'price_minor'])
    .where('bundle_id', '=', bundleId)
    .orderBy(sql`currency = ${ownCurrency}`, 'desc')
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({ currency: row.currency as Currency, priceMinor: row.price_minor }));
}

/**
 * Courses with what a sale needs: a bundle's text in `lang` and price in `currency` where it has them
 * (decision 54), else the course's own.
 */
export function selectForSale(lang: Language, currency?: Currency) {
  return db()
    .selectFrom('courses')
    .leftJoin('bundle_texts', (join) =>
      join.onRef('bundle_texts.bundle_id', '=', 'courses.id').on('bundle_texts.language', '=', lang),
    )
    .leftJoin('bundle_prices', (join) =>
      join
        .onRef('bundle_prices.bundle_id', '=', 'courses.id')
        .on(sql<boolean>`bundle_prices.currency = ${currency ?? sql.ref('courses.currency')}`),
    )
    .select([
      'courses.id',
      sql<string>`coalesce(bundle_texts.title, courses.title)`.as('title'),
      sql<string>`coalesce(bundle_texts.description, courses.description)`.as('description'),
      sql<string>`coalesce(bundle_texts.language, courses.language)`.as('text_language'),
      'courses.language',
      sql<number>`coalesce(bundle_prices.price_minor, courses.price_minor)`.as('price_minor'),
      'courses.minimum_price_minor',
      sql<string>`coalesce(bundle_prices.currency, courses.currency)`.as('currency'),
      'courses.currency as own_currency',
      'courses.kind',
      'courses.bundle_reduces_owned',
    ]);
}
