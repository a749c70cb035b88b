import { createHash } from 'node:crypto';
import { db } from '../db/database.ts';
import { log } from '../log.ts';
import { previewPdf, type PreviewSpec } from '../pdf/preview.ts';
import { StampError } from '../pdf/stamp-document.ts';
import { deleteFile, getFile, putFile, type StoredFile } from '../storage/storage.ts';
import { previewPagesOf, type PreviewPages } from '../../src/lib/admin/course-preview.schema.ts';
import { isCourseLanguage, type CourseLanguage } from '../../src/lib/course-languages.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * A course's free preview: the pages the seller chose, made from the course file in the PDF worker
 * (functions/pdf/preview.ts) on the first request for it, and kept in private storage under a key
 * naming the file version and the pages, so a new file or other pages make a new preview and a repeat
 * request is a file read. Anyone may download it, signed in or not. Decision 45.
 */
const PREVIEW_LAYOUT = 'v1';

/** The word on every page and in the file name, in the course's own language (not the reader's). */
export const PREVIEW_MARKS: Record<CourseLanguage, string> = {
  en: 'Preview',
  tr: 'Önizleme',
  es: 'Vista previa',
  fr: 'Aperçu',
};

export function previewKey(pdfPath: string, pages: PreviewPages): string {
  return `previews/${PREVIEW_LAYOUT}/${pages.firstPage}-${pages.lastPage}/${pdfPath}`;
}

export interface Preview {
  file: StoredFile;
  filename: string;
  /** Names the preview's bytes (its storage key), for resuming with If-Range. */
  etag: string;
}

interface PreviewSource {
  key: string;
  pdfPath: string;
  spec: PreviewSpec;
  filename: string;
  etag: string;
}

// Previews being made in this process: a second request waits for the first.
const inFlight = new Map<string, Promise<StoredFile | undefined>>();

/** The active course's preview, made now if it is the first request since the file or pages changed. */
export async function openPreview(courseId: string): Promise<Preview | undefined> {
  const source = await previewSource(courseId);
  if (!source) return undefined;
  let pending = inFlight.get(source.key);
  if (!pending) {
    pending = storedOrMade(source).finally(() => inFlight.delete(source.key));
    inFlight.set(source.key, pending);
  }
  const file = await pending;
  return file && { file, filename: source.filename, etag: source.etag };
}

/** What a preview download serves, without making it (a HEAD request): its size once it is made. */
export async function describePreview(
  courseId: string,
): Promise<{ filename: string; etag: string; size: number | undefined } | undefined> {
  const source = await previewSource(courseId);
  if (!source) return undefined;
  const file = await getFile('private', source.key);
  return { filename: source.filename, etag: source.etag, size: file?.size };
}

/** Deletes the preview a saved change replaced (another file, other pages, or none). */
export async function releasePreview(
  before: { pdfPath: string | null; pages: PreviewPages | null },
  after: { pdfPath: string | null; pages: PreviewPages | null },
): Promise<void> {
  if (!before.pdfPath || !before.pages) return;
  const old = previewKey(before.pdfPath, before.pages);
  if (after.pdfPath && after.pages && previewKey(after.pdfPath, after.pages) === old) return;
  try {
    await deleteFile('private', old);
  } catch (error) {
    // The change is committed; a preview left behind costs space, never a wrong download.
    log.warn({ key: old, err: error }, 'could not delete a replaced preview');
  }
}

async function previewSource(courseId: string): Promise<PreviewSource | undefined> {
  if (!isUuid(courseId)) return undefined;
  const row = await db()
    .selectFrom('courses')
    .select(['title', 'language', 'pdf_path', 'preview_first_page', 'preview_last_page'])
    .where('id', '=', courseId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  const pages = row && previewPagesOf(row);
  if (!row?.pdf_path || !pages) return undefined;
  const mark = PREVIEW_MARKS[isCourseLanguage(row.language) ? row.language : 'en'];
  const key = previewKey(row.pdf_path, pages);
  return {
    key,
    pdfPath: row.pdf_path,
    spec: { ...pages, mark },
    filename: `${row.title} (${mark}).pdf`,
    etag: `"${createHash('sha256').update(key).digest('base64url').slice(0, 22)}"`,
  };
}

async function storedOrMade(source: PreviewSource): Promise<StoredFile | undefined> {
  const stored = await getFile('private', source.key);
  if (stored) return stored;
  let preview: Uint8Array | undefined;
  try {
    preview = await previewPdf(async () => {
      const original = await getFile('private', source.pdfPath);
      return original?.read();
    }, source.spec);
  } catch (error) {
    if (!(error instanceof StampError)) throw error;
    // Pages past the file's end, or a file the worker refused: no preview rather than a broken one.
    log.warn({ key: source.key, problem: error.problem, err: error.cause }, 'could not make a course preview');
    return undefined;
  }
  if (!preview) return undefined;
  await putFile('private', source.key, preview);
  return getFile('private', source.key);
}
