import { sql } from 'kysely';
import { db } from '../db/database.ts';
import type { AdminCourseView } from '../../src/lib/admin/courses.schema.ts';
import type { Currency, Difficulty } from '../../src/lib/course-filters.ts';
import type { CourseLanguage } from '../../src/lib/course-languages.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { categoryNameIn } from '../catalogue/catalogue.ts';
import { previewPagesOf } from '../../src/lib/admin/course-preview.schema.ts';

/** How the admin sees a course: its row with its category's name in `lang` and the state of its last update notice. */
export function selectViews(lang: Language) {
  return db()
    .selectFrom('courses')
    .innerJoin('categories', 'categories.slug', 'courses.category')
    .leftJoin('course_update_runs', (join) =>
      join
        .onRef('course_update_runs.course_id', '=', 'courses.id')
        .onRef('course_update_runs.pdf_version', '=', 'courses.pdf_version'),
    )
    .select([
      'courses.id',
      'courses.title',
      'courses.description',
      'courses.category',
      'courses.instructor_name',
      'courses.instructor_bio',
      'courses.price_minor',
      'courses.minimum_price_minor',
      'courses.currency',
      'courses.language',
      'courses.difficulty_level',
      'courses.tags',
      'courses.is_featured',
      'courses.is_active',
      'courses.duration_minutes',
      'courses.cover_image_url',
      'courses.stamp_pdfs',
      'courses.pdf_version',
      'courses.pdf_updated_at',
      'courses.preview_first_page',
      'courses.preview_last_page',
      'courses.kind',
      'courses.bundle_reduces_owned',
      sql<string[]>`ARRAY(SELECT course_id FROM bundle_items WHERE bundle_id = courses.id ORDER BY position)`.as(
        'bundle_course_ids',
      ),
      sql<
        AdminCourseView['bundleTexts'] | null
      >`(SELECT jsonb_object_agg(language, jsonb_build_object('title', title, 'description', description)) FROM bundle_texts WHERE bundle_id = courses.id)`.as(
        'bundle_texts',
      ),
      sql<
        AdminCourseView['bundlePrices'] | null
      >`(SELECT jsonb_object_agg(currency, price_minor) FROM bundle_prices WHERE bundle_id = courses.id)`.as('bundle_prices'),
      'courses.created_at',
      'courses.updated_at',
      categoryNameIn(lang).as('category_name'),
      // Whether a PDF is stored, never where.
      sql<boolean>`courses.pdf_path IS NOT NULL`.as('has_pdf'),
      // The current version's "notify buyers" run, if one was asked for: under way, or how many it mailed.
      'course_update_runs.finished_at as notices_finished_at',
      'course_update_runs.buyer_count as notices_buyer_count',
      (eb) =>
        eb
          .selectFrom('course_update_notices')
          .select((inner) => inner.fn.countAll<number>().as('count'))
          .whereRef('course_update_notices.course_id', '=', 'courses.id')
          .whereRef('course_update_notices.pdf_version', '=', 'courses.pdf_version')
          .where('course_update_notices.mailed', '=', true)
          .as('notices_mailed'),
      (eb) =>
        eb
          .selectFrom('purchases')
          .select((inner) => inner.fn.countAll<number>().as('count'))
          .whereRef('purchases.course_id', '=', 'courses.id')
          .where('purchases.status', '=', 'completed')
          .as('purchase_count'),
    ]);
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof selectViews>['executeTakeFirstOrThrow']>>;

export function toView(row: ViewRow): AdminCourseView {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    categoryName: row.category_name,
    instructorName: row.instructor_name,
    instructorBio: row.instructor_bio,
    priceMinor: row.price_minor,
    minimumPriceMinor: row.minimum_price_minor,
    currency: row.currency as Currency,
    language: row.language as CourseLanguage,
    difficulty: row.difficulty_level as Difficulty,
    tags: row.tags,
    isFeatured: row.is_featured,
    isActive: row.is_active,
    durationMinutes: row.duration_minutes,
    coverImageUrl: row.cover_image_url,
    hasPdf: row.has_pdf,
    stampPdfs: row.stamp_pdfs,
    pdfVersion: row.pdf_version,
    pdfUpdatedAt: row.pdf_updated_at?.toISOString() ?? null,
    previewPages: previewPagesOf(row),
    purchaseCount: Number(row.purchase_count ?? 0),
    kind: row.kind,
    bundleCourseIds: row.bundle_course_ids,
    bundleReducesOwned: row.bundle_reduces_owned,
    bundleTexts: row.bundle_texts ?? {},
    bundlePrices: row.bundle_prices ?? {},
    updateNotices:
      row.notices_buyer_count === null
        ? null
        : row.notices_finished_at === null
          ? { sending: true, buyers: row.notices_buyer_count }
          : { sending: false, buyers: Number(row.notices_mailed ?? 0) },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
