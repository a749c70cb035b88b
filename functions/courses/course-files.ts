import { createHash, randomBytes } from 'node:crypto';
import { db } from '../db/database.ts';
import { log } from '../log.ts';
import { checkPdf, type PdfProblem } from '../storage/sniff.ts';
import { reencodeImage, scaledToWidth, type UploadedImageProblem } from '../storage/images.ts';
import { checkStampable, type StampProblem } from '../pdf/stamp.ts';
import { deleteStampedCopies } from '../downloads/stamped-copies.ts';
import { deleteFile, getFile, publicKeyOf, publicUrl, putFile, type Visibility } from '../storage/storage.ts';
import type { FieldErrors } from '../../src/lib/validation.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';

/**
 * A course's files (the private PDF and the public cover): checked by content before anything is stored,
 * stored before the course's row changes and removed again if the write fails, and released (with the
 * buyers' stamped copies of a replaced PDF) only after the commit. The PDF's storage key stays on the server.
 */
export interface CourseUploads {
  pdf?: Uint8Array | undefined;
  cover?: Uint8Array | undefined;
}

export const UPLOAD_FIELDS = ['pdf', 'cover'] as const;
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

export interface CheckedUploads {
  fields: FieldErrors;
  pdf?: Uint8Array;
  /** The cover re-encoded as WebP, without its metadata. */
  cover?: Buffer;
}

export async function checkUploads(
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
export async function storedPdfProblem(pdfPath: string): Promise<FieldErrors> {
  const stored = await getFile('private', pdfPath);
  if (!stored) return {};
  const stampable = await checkStampable(await stored.read());
  return stampable.ok && stampable.signed ? { pdf: SIGNED_PDF } : {};
}

export interface StoredUploads {
  pdfKey?: string;
  pdfSha256?: string;
  coverKey?: string;
  coverUrl?: string;
}

export async function storeUploads(courseId: string, checked: CheckedUploads): Promise<StoredUploads> {
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

export async function removeStored(stored: StoredUploads): Promise<void> {
  // A cover with the same content may already belong to this course: only remove it if unused.
  if (stored.pdfKey) await releasePdf(stored.pdfKey);
  if (stored.coverUrl) await releaseCover(stored.coverUrl);
}

/** Deletes a stored PDF no course points to any more. */
export async function releasePdf(key: string): Promise<void> {
  const used = await db().selectFrom('courses').select('id').where('pdf_path', '=', key).executeTakeFirst();
  if (!used) await deleteQuietly('private', key);
}

/** Deletes one of our stored covers no course or post shows any more; outside URLs are left alone. */
export async function releaseCover(url: string): Promise<void> {
  const key = publicKeyOf(url);
  if (!key?.startsWith('covers/')) return;
  const [course, post] = await Promise.all([
    db().selectFrom('courses').select('id').where('cover_image_url', '=', url).executeTakeFirst(),
    db().selectFrom('blog_posts').select('id').where('cover_image_url', '=', url).executeTakeFirst(),
  ]);
  if (!course && !post) await deleteQuietly('public', key);
}

/** Deletes the buyers' stamped copies of a replaced file (any purchase of the course may have one). */
export async function releaseStampedCopies(courseId: string, pdfPath: string): Promise<void> {
  const purchases = await db().selectFrom('purchases').select('id').where('course_id', '=', courseId).execute();
  await deleteStampedCopies(
    purchases.map((purchase) => purchase.id),
    pdfPath,
  );
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function deleteQuietly(visibility: Visibility, key: string): Promise<void> {
  try {
    await deleteFile(visibility, key);
  } catch (error) {
    // The change is committed; a file left behind costs space, not correctness.
    log.warn({ visibility, key, err: error }, 'could not delete a replaced file');
  }
}
