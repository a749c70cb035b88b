import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG } from '../http/cache-rules.ts';
import { refusingViolations } from '../db/constraints.ts';
import { conflict, invalid, notFound, ok, type Failure, type Result } from '../../src/lib/result.ts';
import { requestUpdateNotices } from './course-update-notices.ts';
import {
  checkUploads,
  releaseCover,
  releasePdf,
  releaseStampedCopies,
  removeStored,
  sha256,
  storedPdfProblem,
  storeUploads,
  UPLOAD_FIELDS,
  type CourseUploads,
} from './course-files.ts';
import { selectViews, toView } from './course-views.ts';
import { releasePreview } from './course-previews.ts';
import { bundleProblem, heldByBundle, saveBundleItems } from './admin-bundles.ts';
import { previewPagesOf } from '../../src/lib/admin/course-preview.schema.ts';
import {
  ADMIN_COURSES_PAGE_SIZE,
  type AdminCoursePage,
  type AdminCourseView,
  type CourseInput,
} from '../../src/lib/admin/courses.schema.ts';
import type { FieldErrors } from '../../src/lib/validation.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/*
 * Course management for admins. Every write runs in a transaction that announces the catalogue
 * change, so cached pages drop at once. Files are checked by content before anything is stored or
 * written; new files are stored before the row changes and removed again if the write fails; files
 * a change replaces are deleted only after the commit (course-files.ts). The PDF's storage key never
 * leaves the server. A PDF with other bytes than the current one is a new version (pdf_version,
 * pdf_updated_at): buyers' stamped copies of the old one are deleted after the commit, and "notify
 * buyers" e-mails them. What the admin reads back is shaped in course-views.ts.
 */

const DUPLICATE = conflict('duplicate', 'admin.errors.duplicate');

export async function listAdminCourses(
  { search = '', page = 1 }: { search?: string; page?: number },
  lang: Language,
): Promise<AdminCoursePage> {
  // Case-insensitive and Turkish-aware, like the catalogue; the admin's % and _ are literal.
  const literal = search.replace(/[\\%_]/g, (char) => `\\${char}`);
  const matches = sql<boolean>`courses.search_text LIKE '%' || fold_search(${literal}) || '%'`;
  let rows = selectViews(lang);
  let count = db()
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<number>().as('total'));
  if (search) {
    rows = rows.where(matches);
    count = count.where(matches);
  }
  const [found, counted] = await Promise.all([
    rows
      .orderBy('courses.created_at', 'desc')
      .orderBy('courses.id')
      .limit(ADMIN_COURSES_PAGE_SIZE)
      .offset((page - 1) * ADMIN_COURSES_PAGE_SIZE)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  const total = Number(counted.total);
  return {
    courses: found.map(toView),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / ADMIN_COURSES_PAGE_SIZE)),
  };
}

export async function getAdminCourse(id: string, lang: Language): Promise<AdminCourseView | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await selectViews(lang).where('courses.id', '=', id).executeTakeFirst();
  return row ? toView(row) : undefined;
}

/** A new course. `requestedId` makes a retried create (same id) a duplicate instead of a second course. */
export async function createCourse(
  input: CourseInput,
  uploads: CourseUploads,
  lang: Language,
  requestedId?: string,
): Promise<Result<AdminCourseView>> {
  const id = requestedId ?? randomUUID();
  if (!isUuid(id)) return invalidFields({ id: 'errors.badRequest' });
  const bundle = input.kind === 'bundle';
  // A bundle sells its courses' files, never one of its own.
  const checked = await checkUploads(bundle ? { cover: uploads.cover } : uploads, {
    pdfRequired: !bundle,
    hasCoverUrl: input.coverImageUrl !== null,
    stampPdfs: input.stampPdfs,
  });
  const fields = { ...checked.fields, ...(await categoryProblem(input.category)), ...(await bundleProblem(input, id)) };
  if (Object.keys(fields).length > 0) return invalidFields(fields);
  if (await courseExists(id)) return DUPLICATE;

  const stored = await storeUploads(id, checked);
  const inserted = await refusingViolations(
    async () => {
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('courses')
            .values({
              ...toRow(input),
              id,
              pdf_path: stored.pdfKey ?? null,
              pdf_sha256: stored.pdfSha256 ?? null,
              cover_image_url: stored.coverUrl ?? input.coverImageUrl,
            })
            .execute();
          await saveBundleItems(trx, id, input);
          await announceChange(trx, CATALOGUE_TAG);
        });
      return ok(id);
    },
    { unique: DUPLICATE },
  ).catch(async (error: unknown) => {
    await removeStored(stored);
    throw error;
  });
  if (!inserted.ok) {
    await removeStored(stored);
    return inserted;
  }
  return found(await getAdminCourse(id, lang));
}

/** What a saved change did beyond the course's fields: the buyers to be told of the new version. */
export interface CourseSaved {
  course: AdminCourseView;
  /**
   * Buyers the background worker will e-mail about the new version because of this save (none for
   * buyers already told, or who turned these mails off). The save does not wait for the mails.
   */
  notified: number;
}

/**
 * Changes a course; a new PDF or cover replaces the old one, which is deleted after the commit (until
 * then, downloads keep serving the old file). `notifyBuyers` asks the background worker to tell the
 * buyers of a replaced file, once; the save returns without waiting for it.
 */
export async function updateCourse(
  id: string,
  input: CourseInput,
  uploads: CourseUploads,
  lang: Language,
): Promise<Result<CourseSaved>> {
  if (!isUuid(id)) return notFound;
  const current = await db()
    .selectFrom('courses')
    .select(['category', 'pdf_path', 'pdf_sha256', 'stamp_pdfs', 'kind'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) return notFound;
  // A course with buyers never turns into a bundle, nor a bundle into a course.
  if (input.kind !== current.kind) return invalidFields({ kind: 'admin.courses.errors.kindFixed' });
  const bundle = current.kind === 'bundle';
  const checked = await checkUploads(bundle ? { cover: uploads.cover } : uploads, {
    pdfRequired: !bundle && !current.pdf_path,
    hasCoverUrl: input.coverImageUrl !== null,
    stampPdfs: input.stampPdfs,
  });
  const stampingTurnedOn = input.stampPdfs && !current.stamp_pdfs && !uploads.pdf && current.pdf_path;
  const fields = {
    ...checked.fields,
    ...(stampingTurnedOn ? await storedPdfProblem(current.pdf_path!) : {}),
    ...(await categoryProblem(input.category, current.category)),
    ...(await bundleProblem(input, id)),
  };
  if (Object.keys(fields).length > 0) return invalidFields(fields);
  // The same bytes again (a retried save, the same file chosen twice) are not a new version.
  if (checked.pdf && current.pdf_path && current.pdf_sha256 === sha256(checked.pdf)) delete checked.pdf;

  const stored = await storeUploads(id, checked);
  const coverUrl = stored.coverUrl ?? input.coverImageUrl;
  let previous:
    | {
        pdf_path: string | null;
        cover_image_url: string | null;
        preview_first_page: number | null;
        preview_last_page: number | null;
      }
    | undefined;
  let notified = 0;
  try {
    previous = await db()
      .transaction()
      .execute(async (trx) => {
        // Locked, so two saves replacing the same file each delete what the other really replaced.
        const before = await trx
          .selectFrom('courses')
          .select(['pdf_path', 'cover_image_url', 'pdf_version', 'preview_first_page', 'preview_last_page'])
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) return undefined;
        const now = new Date();
        const newFile = stored.pdfKey
          ? {
              pdf_path: stored.pdfKey,
              pdf_sha256: stored.pdfSha256 ?? null,
              // A course's first file is its version 1; each replacement is the next version.
              ...(before.pdf_path ? { pdf_version: before.pdf_version + 1, pdf_updated_at: now } : {}),
            }
          : {};
        await trx
          .updateTable('courses')
          .set({ ...toRow(input), ...newFile, cover_image_url: coverUrl, updated_at: now })
          .where('id', '=', id)
          .execute();
        await saveBundleItems(trx, id, input);
        // Recorded with the version it is about: committed together, or neither (the worker sends them).
        if (input.notifyBuyers) notified = await requestUpdateNotices(trx, id);
        await announceChange(trx, CATALOGUE_TAG);
        return before;
      });
  } catch (error) {
    await removeStored(stored);
    throw error;
  }
  if (!previous) {
    await removeStored(stored);
    return notFound;
  }
  if (stored.pdfKey && previous.pdf_path && previous.pdf_path !== stored.pdfKey) {
    await releasePdf(previous.pdf_path);
    await releaseStampedCopies(id, previous.pdf_path);
  }
  if (previous.cover_image_url && previous.cover_image_url !== coverUrl) await releaseCover(previous.cover_image_url);
  await releasePreview(
    { pdfPath: previous.pdf_path, pages: previewPagesOf(previous) },
    { pdfPath: stored.pdfKey ?? previous.pdf_path, pages: input.previewPages },
  );
  const course = await getAdminCourse(id, lang);
  return course ? ok({ course, notified }) : notFound;
}

export async function setCourseActive(id: string, isActive: boolean): Promise<Result<{ id: string; isActive: boolean }>> {
  if (!isUuid(id)) return notFound;
  const changed = await db()
    .transaction()
    .execute(async (trx) => {
      const result = await trx
        .updateTable('courses')
        .set({ is_active: isActive, updated_at: new Date() })
        .where('id', '=', id)
        .executeTakeFirst();
      const updated = Number(result.numUpdatedRows) > 0;
      if (updated) await announceChange(trx, CATALOGUE_TAG);
      return updated;
    });
  return changed ? ok({ id, isActive }) : notFound;
}

/** Deletes a course nobody has bought (or ordered); one with purchases must be deactivated instead. */
export async function deleteCourse(id: string): Promise<Result<{ deleted: true }>> {
  if (!isUuid(id)) return notFound;
  const outcome = await db()
    .transaction()
    .execute(async (trx) => {
      // The row lock also waits for any purchase being written for this course right now.
      const course = await trx
        .selectFrom('courses')
        .select(['pdf_path', 'cover_image_url', 'preview_first_page', 'preview_last_page'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!course) return notFound;
      const purchases = await trx
        .selectFrom('purchases')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('course_id', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(purchases.count) > 0 || (await heldByBundle(trx, id)))
        return conflict('dependencies', 'admin.errors.dependencies');
      await trx.deleteFrom('courses').where('id', '=', id).execute();
      await announceChange(trx, CATALOGUE_TAG);
      return ok(course);
    });
  if (!outcome.ok) return outcome;
  if (outcome.value.pdf_path) await releasePdf(outcome.value.pdf_path);
  if (outcome.value.cover_image_url) await releaseCover(outcome.value.cover_image_url);
  await releasePreview({ pdfPath: outcome.value.pdf_path, pages: previewPagesOf(outcome.value) }, { pdfPath: null, pages: null });
  return ok({ deleted: true });
}

const found = <T>(value: T | undefined): Result<T> => (value === undefined ? notFound : ok(value));

/** A refused save: an upload problem is named in the message itself, so it reads clearly anywhere. */
function invalidFields(fields: FieldErrors): Failure {
  const upload = UPLOAD_FIELDS.map((name) => fields[name]).find((message) => message !== undefined);
  return invalid('invalid_input', upload ?? 'errors.badRequest', fields);
}

/** A course goes into an active category; an existing course may keep the one it has. */
async function categoryProblem(slug: string, currentSlug?: string): Promise<FieldErrors> {
  const category = await db().selectFrom('categories').select('is_active').where('slug', '=', slug).executeTakeFirst();
  if (category && (category.is_active || slug === currentSlug)) return {};
  return { category: 'admin.courses.errors.categoryInvalid' };
}

async function courseExists(id: string): Promise<boolean> {
  return Boolean(await db().selectFrom('courses').select('id').where('id', '=', id).executeTakeFirst());
}

function toRow(input: CourseInput) {
  return {
    title: input.title,
    description: input.description,
    category: input.category,
    difficulty_level: input.difficulty,
    language: input.language,
    price_minor: input.priceMinor,
    minimum_price_minor: input.minimumPriceMinor,
    currency: input.currency,
    duration_minutes: input.durationMinutes,
    instructor_name: input.instructorName,
    instructor_bio: input.instructorBio,
    tags: input.tags,
    is_featured: input.isFeatured,
    is_active: input.isActive,
    stamp_pdfs: input.stampPdfs,
    preview_first_page: input.previewPages?.firstPage ?? null,
    preview_last_page: input.previewPages?.lastPage ?? null,
    kind: input.kind,
    bundle_reduces_owned: input.bundleReducesOwned,
  };
}
