import { z } from '../zod.ts';
import { CURRENCIES, DIFFICULTIES, MAX_SEARCH_LENGTH, type Currency, type Difficulty } from '../course-filters.ts';
import { COURSE_LANGUAGES, type CourseLanguage } from '../course-languages.ts';
import { PUBLIC_MEDIA_PREFIX } from '../course-links.ts';
import { MAX_PRICE_MAJOR, toMajorUnits, toMinorUnits } from '../money.ts';
import { isUuid } from '../uuid.ts';
import { PreviewPagesField, previewPagesText, type PreviewPages } from './course-preview.schema.ts';
import { LANGUAGES, perLanguage, type Language } from '../../i18n/languages.ts';

/** The admin course form, checked by the same schema in the island and in the endpoints. Client-safe. */
export const MAX_PDF_BYTES = 50 * 1024 * 1024;
export const MAX_COVER_BYTES = 5 * 1024 * 1024;
export const COURSE_DURATION_MIN_MINUTES = 1;
export const COURSE_DURATION_MAX_MINUTES = 600;
export const ADMIN_COURSES_PAGE_SIZE = 50;
export const MAX_TAGS = 20;
export const PDF_ACCEPT = '.pdf,application/pdf';
export const COVER_ACCEPT = 'image/png,image/jpeg,image/webp';
/** A course sells a PDF; a bundle sells several courses at once (decision 44). Fixed once created. */
export const COURSE_KINDS = ['course', 'bundle'] as const;
export type CourseKind = (typeof COURSE_KINDS)[number];
/** A bundle holds at least two courses (one would be the course itself), and at most this many. */
export const BUNDLE_MIN_COURSES = 2;
export const BUNDLE_MAX_COURSES = 50;
/** Share links of these hosts open a viewer page, not an image: they never work as a cover. */
export const CLOUD_DRIVE_HOSTS = [
  'drive.google.com',
  'docs.google.com',
  'dropbox.com',
  'onedrive.live.com',
  '1drv.ms',
  'sharepoint.com',
] as const;

/** A course as the admin island sees it: everything but where its PDF is stored. */
export interface AdminCourseView {
  id: string;
  title: string;
  description: string;
  category: string;
  categoryName: string;
  instructorName: string;
  instructorBio: string;
  priceMinor: number;
  /** Pay what you want: the least a buyer may name (priceMinor is then the suggestion); null for a fixed price. */
  minimumPriceMinor: number | null;
  currency: Currency;
  language: CourseLanguage;
  difficulty: Difficulty;
  tags: string[];
  isFeatured: boolean;
  isActive: boolean;
  durationMinutes: number;
  coverImageUrl: string | null;
  hasPdf: boolean;
  /** Whether buyers' downloads carry their name, e-mail and order on every page. */
  stampPdfs: boolean;
  /** The PDF's version (1 until it is first replaced) and when it was last replaced. */
  pdfVersion: number;
  pdfUpdatedAt: string | null;
  /** The pages anyone may download as a free preview, or null for none. */
  previewPages: PreviewPages | null;
  purchaseCount: number;
  kind: CourseKind;
  /** A bundle's courses in its order, and whether owning some lowers its price; empty and true for a course. */
  bundleCourseIds: string[];
  bundleReducesOwned: boolean;
  /** A bundle's text per language and price per currency (its own language's and currency's too); empty for a course. */
  bundleTexts: Partial<Record<Language, { title: string; description: string }>>;
  bundlePrices: Partial<Record<Currency, number>>;
  /**
   * The "new version" e-mails of the current version, when a save asked for them: being sent (to
   * `buyers` buyers) by the background worker, or sent (`buyers` mailed).
   */
  updateNotices: { sending: boolean; buyers: number } | null;
  createdAt: string;
  updatedAt: string;
}

/** A course a bundle may hold, as the editor offers it. */
export interface BundleChoice {
  id: string;
  title: string;
  currency: Currency;
  priceMinor: number;
}

export interface AdminCoursePage {
  courses: AdminCourseView[];
  total: number;
  page: number;
  pageCount: number;
}

/** "a, b, , c " → ["a", "b", "c"]: trimmed, empties dropped, duplicates kept once. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
}

export function isCloudDriveLink(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return CLOUD_DRIVE_HOSTS.some((drive) => host === drive || host.endsWith(`.${drive}`));
}

/** An absolute http(s) URL, or a file this shop serves itself (an uploaded cover). */
export function isCoverUrl(value: string): boolean {
  if (value.startsWith(PUBLIC_MEDIA_PREFIX)) return /^\/media\/[a-z0-9][a-z0-9._/-]*$/.test(value) && !value.includes('..');
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
}

/** Bundle courses travel as one comma-separated field of ids (the form's values are strings). */
const bundleCourseIds = z
  .string()
  .max(BUNDLE_MAX_COURSES * 40, 'admin.courses.errors.bundleCoursesInvalid')
  .transform((text) => [
    ...new Set(
      text
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ])
  .refine((ids) => ids.length <= BUNDLE_MAX_COURSES && ids.every(isUuid), 'admin.courses.errors.bundleCoursesInvalid');

/**
 * A bundle's text in each interface language other than its own (its title and description fields
 * hold that one), and its price in each currency other than its own (empty: not sold in it). One flat
 * field each, so a new language or currency is a new field (decision 44).
 */
export const bundleTitleField = (lang: Language) => `title-${lang}` as const;
export const bundleDescriptionField = (lang: Language) => `description-${lang}` as const;
export const bundlePriceField = (currency: Currency) => `price-${currency}` as const;
const perCurrency = <T>(value: (currency: Currency) => T) =>
  Object.fromEntries(CURRENCIES.map((currency) => [bundlePriceField(currency), value(currency)])) as Record<
    ReturnType<typeof bundlePriceField>,
    T
  >;
const optionalText = (max: number) => z.string().trim().max(max, 'validation.tooLong').default('');

const requiredText = (max: number, message: string) => z.string().trim().min(1, message).max(max, 'validation.tooLong');
const flag = z.enum(['true', 'false']).transform((value) => value === 'true');
const amount = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, message)
    .transform(Number)
    .refine((value) => value >= 0 && value <= MAX_PRICE_MAJOR, message);

const CourseFormFields = z.object({
  title: requiredText(200, 'admin.courses.errors.titleRequired'),
  category: z
    .string()
    .trim()
    .min(1, 'admin.courses.errors.categoryRequired')
    .max(100)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'admin.courses.errors.categoryInvalid'),
  description: requiredText(5000, 'admin.courses.errors.descriptionRequired'),
  instructorName: requiredText(200, 'admin.courses.errors.instructorNameRequired'),
  instructorBio: requiredText(2000, 'admin.courses.errors.instructorBioRequired'),
  price: amount('admin.courses.errors.priceInvalid'),
  payWhatYouWant: flag,
  minimumPrice: z.string().max(20, 'admin.courses.errors.minimumInvalid'),
  currency: z.enum(CURRENCIES, 'admin.courses.errors.currencyInvalid'),
  language: z.enum(COURSE_LANGUAGES, 'admin.courses.errors.languageInvalid'),
  difficulty: z.enum(DIFFICULTIES, 'admin.courses.errors.difficultyInvalid'),
  tags: z
    .string()
    .max(1000, 'validation.tooLong')
    .transform(parseTags)
    .refine((tags) => tags.length <= MAX_TAGS && tags.every((tag) => tag.length <= 50), 'admin.courses.errors.tagsInvalid'),
  isFeatured: flag,
  isActive: flag,
  stampPdfs: flag,
  // Whether buyers get the "new version" e-mail: only on an explicit 'true', so a client that leaves it out mails nobody.
  notifyBuyers: flag.catch(false),
  durationMinutes: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, 'admin.courses.errors.durationInvalid')
    .transform(Number)
    .refine(
      (value) => value >= COURSE_DURATION_MIN_MINUTES && value <= COURSE_DURATION_MAX_MINUTES,
      'admin.courses.errors.durationInvalid',
    ),
  previewPages: PreviewPagesField,
  // Left out by an older client: a course, as before bundles.
  kind: z.enum(COURSE_KINDS, 'admin.courses.errors.kindInvalid').default('course'),
  bundleCourses: bundleCourseIds.default([]),
  bundleReducesOwned: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  ...perLanguage(bundleTitleField, () => optionalText(200)),
  ...perLanguage(bundleDescriptionField, () => optionalText(5000)),
  ...perCurrency(() => z.string().max(20, 'admin.courses.errors.priceInvalid').default('')),
  // Optional here: an uploaded image may stand in for it (checked with the files).
  coverImageUrl: z
    .string()
    .trim()
    .max(2000, 'validation.tooLong')
    .refine((value) => value === '' || isCoverUrl(value), 'admin.courses.errors.coverUrlInvalid'),
});

export const CourseFormSchema = CourseFormFields.transform(
  ({ price, coverImageUrl, payWhatYouWant, minimumPrice, bundleCourses, ...fields }, context) => {
    const { course, texts, prices } = splitBundleFields(fields);
    // With pay what you want, the price is the suggestion and the minimum (0: free allowed) at most that.
    const minimum = payWhatYouWant ? amount('admin.courses.errors.minimumInvalid').safeParse(minimumPrice) : undefined;
    if (minimum && (!minimum.success || minimum.data > price))
      context.addIssue({ code: 'custom', path: ['minimumPrice'], message: 'admin.courses.errors.minimumInvalid' });
    const bundle = course.kind === 'bundle';
    // A bundle's price is fixed: its saving is computed against it.
    if (bundle && payWhatYouWant)
      context.addIssue({ code: 'custom', path: ['payWhatYouWant'], message: 'admin.courses.errors.bundleFixedPrice' });
    if (bundle && bundleCourses.length < BUNDLE_MIN_COURSES)
      context.addIssue({ code: 'custom', path: ['bundleCourses'], message: 'admin.courses.errors.bundleCoursesTooFew' });
    return {
      ...course,
      ...(bundle ? bundleTextsAndPrices({ ...course, priceMinor: toMinorUnits(price) }, texts, prices, context) : NO_BUNDLE),
      bundleCourseIds: bundle ? bundleCourses : [],
      priceMinor: toMinorUnits(price),
      minimumPriceMinor: minimum?.success ? toMinorUnits(minimum.data) : null,
      coverImageUrl: coverImageUrl || null,
    };
  },
);

type FormFields = Omit<
  z.output<typeof CourseFormFields>,
  'price' | 'coverImageUrl' | 'payWhatYouWant' | 'minimumPrice' | 'bundleCourses'
>;
type BundleText = { language: string; title: string; description: string };
type BundlePrice = { currency: Currency; priceMinor: number };
const NO_BUNDLE = { bundleTexts: [] as BundleText[], bundlePrices: [] as BundlePrice[] };

/** The per-language and per-currency fields apart from the course's own. */
function splitBundleFields(fields: FormFields) {
  const texts = new Map<Language, { title: string; description: string }>();
  const prices = new Map<Currency, string>();
  const course: Record<string, unknown> = { ...fields };
  for (const lang of LANGUAGES) {
    texts.set(lang, { title: fields[bundleTitleField(lang)], description: fields[bundleDescriptionField(lang)] });
    delete course[bundleTitleField(lang)];
    delete course[bundleDescriptionField(lang)];
  }
  for (const currency of CURRENCIES) {
    prices.set(currency, fields[bundlePriceField(currency)].trim());
    delete course[bundlePriceField(currency)];
  }
  type Own = Omit<FormFields, ReturnType<typeof bundleTitleField | typeof bundleDescriptionField | typeof bundlePriceField>>;
  return { course: course as Own, texts, prices };
}

/**
 * A bundle's texts and prices, its own language's and currency's first (from the title, description,
 * price and currency fields). Every other interface language needs its text; a currency left empty
 * is not sold in.
 */
function bundleTextsAndPrices(
  own: { language: CourseLanguage; title: string; description: string; currency: Currency; priceMinor: number },
  texts: Map<Language, { title: string; description: string }>,
  prices: Map<Currency, string>,
  context: z.RefinementCtx,
): typeof NO_BUNDLE {
  const bundleTexts: BundleText[] = [{ language: own.language, title: own.title, description: own.description }];
  for (const [lang, text] of texts) {
    if (lang === own.language) continue;
    if (!text.title)
      context.addIssue({
        code: 'custom',
        path: [bundleTitleField(lang)],
        message: `admin.courses.errors.bundleTitleRequired.${lang}`,
      });
    if (!text.description)
      context.addIssue({
        code: 'custom',
        path: [bundleDescriptionField(lang)],
        message: `admin.courses.errors.bundleDescriptionRequired.${lang}`,
      });
    bundleTexts.push({ language: lang, ...text });
  }
  const bundlePrices: BundlePrice[] = [{ currency: own.currency, priceMinor: own.priceMinor }];
  for (const [currency, typed] of prices) {
    if (currency === own.currency || typed === '') continue;
    const parsed = amount('admin.courses.errors.priceInvalid').safeParse(typed);
    if (parsed.success) bundlePrices.push({ currency, priceMinor: toMinorUnits(parsed.data) });
    else context.addIssue({ code: 'custom', path: [bundlePriceField(currency)], message: 'admin.courses.errors.priceInvalid' });
  }
  return { bundleTexts, bundlePrices };
}

// The island always sends every field; the defaults are for older clients.
type CourseFormInput = z.input<typeof CourseFormSchema>;
export type CourseFormValues = { [K in keyof CourseFormInput]-?: Exclude<CourseFormInput[K], undefined> };
export type CourseInput = z.output<typeof CourseFormSchema>;
export const COURSE_FORM_FIELDS = Object.keys(CourseFormSchema.in.shape) as (keyof CourseFormValues)[];

export const CourseStatusSchema = z.object({ isActive: z.boolean() });

/** A new course starts free, in US dollars, in English, for beginners, not featured, active, its PDFs stamped. */
export function newCourseValues(category = ''): CourseFormValues {
  return {
    title: '',
    category,
    description: '',
    instructorName: '',
    instructorBio: '',
    price: '0',
    payWhatYouWant: 'false',
    minimumPrice: '0',
    currency: 'USD',
    language: 'en',
    difficulty: 'beginner',
    tags: '',
    isFeatured: 'false',
    isActive: 'true',
    stampPdfs: 'true',
    notifyBuyers: 'false',
    durationMinutes: '30',
    coverImageUrl: '',
    previewPages: '',
    kind: 'course',
    bundleCourses: '',
    bundleReducesOwned: 'true',
    ...perLanguage(bundleTitleField, () => ''),
    ...perLanguage(bundleDescriptionField, () => ''),
    ...perCurrency(() => ''),
  };
}

export function courseValues(course: AdminCourseView): CourseFormValues {
  return {
    title: course.title,
    category: course.category,
    description: course.description,
    instructorName: course.instructorName,
    instructorBio: course.instructorBio,
    price: toMajorUnits(course.priceMinor).toFixed(2),
    payWhatYouWant: course.minimumPriceMinor === null ? 'false' : 'true',
    minimumPrice: toMajorUnits(course.minimumPriceMinor ?? 0).toFixed(2),
    currency: course.currency,
    language: course.language,
    difficulty: course.difficulty,
    tags: course.tags.join(', '),
    isFeatured: String(course.isFeatured) as 'true' | 'false',
    isActive: String(course.isActive) as 'true' | 'false',
    stampPdfs: String(course.stampPdfs) as 'true' | 'false',
    notifyBuyers: 'false',
    durationMinutes: String(course.durationMinutes),
    coverImageUrl: course.coverImageUrl ?? '',
    previewPages: previewPagesText(course.previewPages),
    kind: course.kind,
    bundleCourses: course.bundleCourseIds.join(','),
    bundleReducesOwned: String(course.bundleReducesOwned) as 'true' | 'false',
    ...perLanguage(bundleTitleField, (lang) => course.bundleTexts[lang]?.title ?? ''),
    ...perLanguage(bundleDescriptionField, (lang) => course.bundleTexts[lang]?.description ?? ''),
    ...perCurrency((currency) => {
      const minor = course.bundlePrices[currency];
      return minor === undefined ? '' : toMajorUnits(minor).toFixed(2);
    }),
  };
}

const QuerySchema = z.object({
  // Control characters (NUL included, which PostgreSQL refuses in text) never reach a query.
  search: z
    .string()
    .max(10_000)
    .transform((value) =>
      value
        .replace(/\p{Cc}/gu, ' ')
        .trim()
        .slice(0, MAX_SEARCH_LENGTH),
    )
    .catch(''),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** The admin list's query string; anything invalid falls back to the first page of everything. */
export function parseAdminCourseQuery(params: URLSearchParams): { search: string; page: number } {
  return QuerySchema.parse({ search: params.get('search') ?? '', page: params.get('page') ?? '1' });
}
