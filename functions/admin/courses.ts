import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG } from '../http/cache-rules.ts';
import { refusingViolations } from '../db/constraints.ts';
import { log } from '../log.ts';
import { conflict, invalid, notFound, ok, type Failure, type Result } from '../../src/lib/result.ts';
import { checkPdf, type PdfProblem } from '../storage/sniff.ts';
import { reencodeImage, scaledToWidth, type UploadedImageProblem } from '../storage/images.ts';
import { checkStampable, type StampProblem } from '../pdf/stamp.ts';
import { deleteStampedCopies } from '../downloads/stamped-copies.ts';
import { requestUpdateNotices } from './course-update-notices.ts';
import { deleteFile, getFile, publicKeyOf, publicUrl, putFile, readAll, type Visibility } from '../storage/storage.ts';
import {
  ADMIN_COURSES_PAGE_SIZE,
  type AdminCoursePage,
  type AdminCourseView,
  type CourseInput,
} from '../../src/lib/admin/courses.schema.ts';
import type { Currency, Difficulty } from '../../src/lib/course-filters.ts';
import type { CourseLanguage } from '../../src/lib/course-languages.ts';
import type { FieldErrors } from '../../src/lib/validation.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * Course management for admins. Every write runs in a transaction that announces the catalogue
 * change, so cached pages drop at once. Files are checked by content before anything is stored or
 * written; new files are stored before the row changes and removed again if the write fails; files
 * a change replaces are deleted only after the commit. The PDF's storage key never leaves this module.
 * A PDF with other bytes than the current one is a new version (pdf_version, pdf_updated_at): buyers'
 * stamped copies of the old one are deleted after the commit, and "notify buyers" e-mails them.
 */
export interface CourseUploads {
  pdf?: Uint8Array | undefined;
  cover?: Uint8Array | undefined;
}

const DUPLICATE = conflict('duplicate', 'admin.errors.duplicate');
const UPLOAD_FIELDS = ['pdf', 'cover'] as const;
const PDF_MESSAGES: Record<PdfProblem | StampProblem, MessageKey> = {
  empty: 'admin.courses.errors.pdfInvalid',
  notPdf: 'admin.courses.errors.pdfInvalid',
  polyglot: 'admin.courses.errors.pdfPolyglot',
  tooLarge: 'admin.courses.errors.pdfTooLarge',
  // The shop stamps every download: a file it could not stamp would fail its buyers later.
  encrypted: 'admin.courses.errors.pdfEncrypted',
  unreadable: 'admin.courses.errors.pdfUnreadable',
  // Checked in the PDF worker (functions/pdf/pdf-job.ts): a file built to stall whoever parses it.
  pageTree: 'admin.courses.errors.pdfPageTree',
  inflation: 'admin.courses.errors.pdfInflates',
  limits: 'admin.courses.errors.pdfTooHeavy',
};
// Any stamp rewrites the file and breaks a digital signature: the seller chooses, stamps or signature.
const SIGNED_PDF: MessageKey = 'admin.courses.errors.pdfSigned';
const COVER_MESSAGES: Record<UploadedImageProblem, MessageKey> = {
  empty: 'admin.courses.errors.coverInvalid',
  notImage: 'admin.courses.errors.coverInvalid',
  unreadable: 'admin.courses.errors.coverInvalid',
  tooLarge: 'admin.courses.errors.coverTooLarge',
  tooManyPixels: 'admin.courses.errors.coverTooManyPixels',
};
/** Covers are made safe to serve as blog images are, kept in their shape, at most this wide (pages crop them). */
const COVER_MAX_WIDTH = 1200;

export async function listAdminCourses(
  { search = '', page = 1 }: { search?: string; page?: number },
  lang: Language,
): Promise<AdminCoursePage> {
  // Case-insensitive and Turkish-aware, like the catalogue; the admin's % and _ are literal.
  const literal = search.replace(/[\\%_]/g, (char) => `\\${char}`);
  const matches = sql<boolean>`courses.search_text LIKE '%' || fold_search(${literal}) || '%'`;
  let rows = selectViews();
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
    courses: found.map((row) => toView(row, lang)),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / ADMIN_COURSES_PAGE_SIZE)),
  };
}

export async function getAdminCourse(id: string, lang: Language): Promise<AdminCourseView | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await selectViews().where('courses.id', '=', id).executeTakeFirst();
  return row ? toView(row, lang) : undefined;
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
  const checked = await checkUploads(uploads, {
    pdfRequired: true,
    hasCoverUrl: input.coverImageUrl !== null,
    stampPdfs: input.stampPdfs,
  });
  const fields = { ...checked.fields, ...(await categoryProblem(input.category)) };
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
    .select(['category', 'pdf_path', 'pdf_sha256', 'stamp_pdfs'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) return notFound;
  const checked = await checkUploads(uploads, {
    pdfRequired: !current.pdf_path,
    hasCoverUrl: input.coverImageUrl !== null,
    stampPdfs: input.stampPdfs,
  });
  const stampingTurnedOn = input.stampPdfs && !current.stamp_pdfs && !uploads.pdf && current.pdf_path;
  const fields = {
    ...checked.fields,
    ...(stampingTurnedOn ? await storedPdfProblem(current.pdf_path!) : {}),
    ...(await categoryProblem(input.category, current.category)),
  };
  if (Object.keys(fields).length > 0) return invalidFields(fields);
  // The same bytes again (a retried save, the same file chosen twice) are not a new version.
  if (checked.pdf && current.pdf_path && current.pdf_sha256 === sha256(checked.pdf)) delete checked.pdf;

  const stored = await storeUploads(id, checked);
  const coverUrl = stored.coverUrl ?? input.coverImageUrl;
  let previous: { pdf_path: string | null; cover_image_url: string | null } | undefined;
  let notified = 0;
  try {
    previous = await db()
      .transaction()
      .execute(async (trx) => {
        // Locked, so two saves replacing the same file each delete what the other really replaced.
        const before = await trx
          .selectFrom('courses')
          .select(['pdf_path', 'cover_image_url', 'pdf_version'])
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
        .select(['pdf_path', 'cover_image_url'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!course) return notFound;
      const purchases = await trx
        .selectFrom('purchases')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('course_id', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(purchases.count) > 0) return conflict('dependencies', 'admin.errors.dependencies');
      await trx.deleteFrom('courses').where('id', '=', id).execute();
      await announceChange(trx, CATALOGUE_TAG);
      return ok(course);
    });
  if (!outcome.ok) return outcome;
  if (outcome.value.pdf_path) await releasePdf(outcome.value.pdf_path);
  if (outcome.value.cover_image_url) await releaseCover(outcome.value.cover_image_url);
  return ok({ deleted: true });
}

const found = <T>(value: T | undefined): Result<T> => (value === undefined ? notFound : ok(value));

/** A refused save: an upload problem is named in the message itself, so it reads clearly anywhere. */
function invalidFields(fields: FieldErrors): Failure {
  const upload = UPLOAD_FIELDS.map((name) => fields[name]).find((message) => message !== undefined);
  return invalid('invalid_input', upload ?? 'errors.badRequest', fields);
}

interface CheckedUploads {
  fields: FieldErrors;
  pdf?: Uint8Array;
  /** The cover re-encoded as WebP, without its metadata. */
  cover?: Buffer;
}

async function checkUploads(
  uploads: CourseUploads,
  { pdfRequired, hasCoverUrl, stampPdfs }: { pdfRequired: boolean; hasCoverUrl: boolean; stampPdfs: boolean },
): Promise<CheckedUploads> {
  const checked: CheckedUploads = { fields: {} };
  if (uploads.pdf) {
    const pdf = checkPdf(uploads.pdf);
    const stampable = pdf.ok ? await checkStampable(uploads.pdf) : pdf;
    if (!stampable.ok) checked.fields.pdf = PDF_MESSAGES[stampable.problem];
    else if (stampable.signed && stampPdfs) checked.fields.pdf = SIGNED_PDF;
    else checked.pdf = uploads.pdf;
  } else if (pdfRequired) {
    checked.fields.pdf = 'admin.courses.errors.pdfRequired';
  }
  if (uploads.cover) {
    const cover = await reencodeImage(uploads.cover, (upright) => [scaledToWidth(upright, COVER_MAX_WIDTH)]);
    if (cover.ok) checked.cover = cover.images[0]!.data;
    else checked.fields.cover = COVER_MESSAGES[cover.problem];
  } else if (!hasCoverUrl) {
    checked.fields.cover = 'admin.courses.errors.coverRequired';
  }
  return checked;
}

/** Turning stamping on for a stored file: refused when the file is signed, since every stamp would break it. */
async function storedPdfProblem(pdfPath: string): Promise<FieldErrors> {
  const stored = await getFile('private', pdfPath);
  if (!stored) return {};
  const stampable = await checkStampable(await readAll(stored));
  return stampable.ok && stampable.signed ? { pdf: SIGNED_PDF } : {};
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

interface StoredUploads {
  pdfKey?: string;
  pdfSha256?: string;
  coverKey?: string;
  coverUrl?: string;
}

async function storeUploads(courseId: string, checked: CheckedUploads): Promise<StoredUploads> {
  const stored: StoredUploads = {};
  try {
    if (checked.pdf) {
      const key = `courses/${courseId}-${randomBytes(8).toString('hex')}.pdf`;
      await putFile('private', key, checked.pdf);
      stored.pdfKey = key;
      stored.pdfSha256 = sha256(checked.pdf);
    }
    if (checked.cover) {
      // Named by content: browsers may cache a cover forever, and a new image gets a new URL.
      const hash = createHash('sha256').update(checked.cover).digest('hex').slice(0, 16);
      const key = `covers/${courseId}-${hash}.webp`;
      await putFile('public', key, checked.cover);
      stored.coverKey = key;
      stored.coverUrl = publicUrl(key);
    }
  } catch (error) {
    await removeStored(stored);
    throw error;
  }
  return stored;
}

async function removeStored(stored: StoredUploads): Promise<void> {
  // A cover with the same content may already belong to this course: only remove it if unused.
  if (stored.pdfKey) await releasePdf(stored.pdfKey);
  if (stored.coverUrl) await releaseCover(stored.coverUrl);
}

/** Deletes a stored PDF no course points to any more. */
async function releasePdf(key: string): Promise<void> {
  const used = await db().selectFrom('courses').select('id').where('pdf_path', '=', key).executeTakeFirst();
  if (!used) await deleteQuietly('private', key);
}

/** Deletes one of our stored covers no course or post shows any more; outside URLs are left alone. */
async function releaseCover(url: string): Promise<void> {
  const key = publicKeyOf(url);
  if (!key?.startsWith('covers/')) return;
  const [course, post] = await Promise.all([
    db().selectFrom('courses').select('id').where('cover_image_url', '=', url).executeTakeFirst(),
    db().selectFrom('blog_posts').select('id').where('cover_image_url', '=', url).executeTakeFirst(),
  ]);
  if (!course && !post) await deleteQuietly('public', key);
}

/** Deletes the buyers' stamped copies of a replaced file (any purchase of the course may have one). */
async function releaseStampedCopies(courseId: string, pdfPath: string): Promise<void> {
  const purchases = await db().selectFrom('purchases').select('id').where('course_id', '=', courseId).execute();
  await deleteStampedCopies(
    purchases.map((purchase) => purchase.id),
    pdfPath,
  );
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function deleteQuietly(visibility: Visibility, key: string): Promise<void> {
  try {
    await deleteFile(visibility, key);
  } catch (error) {
    // The change is committed; a file left behind costs space, not correctness.
    log.warn({ visibility, key, err: error }, 'could not delete a replaced file');
  }
}

function toRow(input: CourseInput) {
  return {
    title: input.title,
    description: input.description,
    category: input.category,
    difficulty_level: input.difficulty,
    language: input.language,
    price_minor: input.priceMinor,
    currency: input.currency,
    duration_minutes: input.durationMinutes,
    instructor_name: input.instructorName,
    instructor_bio: input.instructorBio,
    tags: input.tags,
    is_featured: input.isFeatured,
    is_active: input.isActive,
    stamp_pdfs: input.stampPdfs,
  };
}

function selectViews() {
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
      'courses.created_at',
      'courses.updated_at',
      'categories.name_en as category_name_en',
      'categories.name_tr as category_name_tr',
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

function toView(row: ViewRow, lang: Language): AdminCourseView {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    categoryName: lang === 'tr' ? row.category_name_tr : row.category_name_en,
    instructorName: row.instructor_name,
    instructorBio: row.instructor_bio,
    priceMinor: row.price_minor,
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
    purchaseCount: Number(row.purchase_count ?? 0),
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
