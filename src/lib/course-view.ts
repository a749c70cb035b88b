import type { Currency, Difficulty } from './course-filters.ts';
import type { CourseLanguage } from './course-languages.ts';

/** The course fields islands receive: small, serialisable, and without any file location. */
export interface CourseSummaryView {
  id: string;
  title: string;
  description: string;
  /** The language the title and description are written in: a bundle's may be another than the page's (decision 44). */
  textLanguage: CourseLanguage;
  category: string;
  categoryName: string;
  difficulty: Difficulty;
  language: CourseLanguage;
  /** The fixed price; with pay what you want, the suggested one. */
  priceMinor: number;
  /** Pay what you want: the least the buyer may name (0: free allowed); null for a fixed price. */
  minimumPriceMinor: number | null;
  currency: Currency;
  durationMinutes: number;
  coverImageUrl: string | null;
  instructorName: string;
  tags: string[];
  students: number;
  /** The average of the reviews that count (one decimal) and their number; null until there is one. */
  rating: { average: number; count: number } | null;
  /** A bundle (decision 44): how many courses it holds, and its saving against their separate prices; null for a course. */
  bundle: BundleSummary | null;
}

/**
 * What a catalogue card shows of a bundle, computed from its courses' prices (src/lib/bundle-price.ts),
 * in the currency of the price shown; null when that is not the currency its courses are priced in.
 */
export interface BundleSummary {
  courseCount: number;
  separateMinor: number | null;
  savingMinor: number | null;
}

export interface CategoryOption {
  slug: string;
  name: string;
}

export interface CataloguePageView {
  courses: CourseSummaryView[];
  total: number;
  page: number;
  pageCount: number;
}
