import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { isSigned, sign } from '../auth/signing.ts';
import { getFile, signedDownloadUrl, type StoredFile } from '../storage/storage.ts';
import { inLibraryOf } from '../orders/library.ts';
import { notAGiftOrder } from '../orders/gifts.ts';
import { stampedCopy, stampedKey, storedStampedCopy, type StampedPurchase } from './stamped-copies.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * Paid files are never public. A purchase's permanent link (e-mailed) or the owner's dashboard
 * button leads to a short-lived signed file URL; only that URL streams the PDF, and each download from
 * its first byte counts (a resumed one, or a HEAD request, does not).
 */
export const DOWNLOAD_URL_TTL_MS = 5 * 60 * 1000;
const FILE_DOWNLOADS = 'file-downloads';

/** Why a download cannot start, as the reader is told (the page /[lang]/downloads/unavailable). */
export type DownloadProblem = 'unknown' | 'revoked' | 'expired' | 'signed_out';

/** An e-mailed link's purchase, or why it no longer opens (refunded or disputed, or no such link). */
export async function purchaseForToken(
  token: string,
): Promise<{ purchaseId: string; language: string } | { problem: DownloadProblem; language?: string }> {
  if (!/^[\w-]{20,100}$/.test(token)) return { problem: 'unknown' };
  const row = await db()
    .selectFrom('purchases')
    .select(['id', 'status', 'language'])
    .where('download_token', '=', token)
    .where(notAGiftOrder)
    .executeTakeFirst();
  if (!row) return { problem: 'unknown' };
  if (row.status !== 'completed') return { problem: 'revoked', language: row.language };
  return { purchaseId: row.id, language: row.language };
}

/** The owner's completed purchase, or undefined (another user's, refunded, unknown: all the same). */
export async function purchaseOwnedBy(purchaseId: string, userId: string): Promise<string | undefined> {
  if (!isUuid(purchaseId)) return undefined;
  const row = await db()
    .selectFrom('purchases')
    .select('id')
    .where('id', '=', purchaseId)
    .where(inLibraryOf(userId))
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return row?.id;
}

export function signedFileUrl(purchaseId: string, now = Date.now()): string {
  const expires = now + DOWNLOAD_URL_TTL_MS;
  return `/api/files/${purchaseId}?expires=${expires}&signature=${signature(purchaseId, expires)}`;
}

export function isValidFileSignature(purchaseId: string, expires: number, given: string, now = Date.now()): boolean {
  if (!Number.isSafeInteger(expires) || expires < now || expires > now + DOWNLOAD_URL_TTL_MS) return false;
  return isSigned(FILE_DOWNLOADS, `${purchaseId}.${expires}`, given);
}

export interface Download {
  file: StoredFile;
  filename: string;
  /** Names the bytes served (the stamped copy's or the original's storage key), for resuming with If-Range. */
  etag: string;
}

/**
 * Opens the file a purchase grants: the buyer's stamped copy (stamped now on the first download of a
 * file version, see stamped-copies.ts), or the original when the seller turned stamping off for the
 * course. Undefined when the purchase no longer grants access. Counting is the caller's (countDownload):
 * a resumed download is the same download.
 */
export async function openDownload(purchaseId: string): Promise<Download | undefined> {
  const row = await downloadRow(purchaseId);
  if (!row) return undefined;
  const file = row.stamped ? await stampedCopy(row.stamped) : await getFile('private', row.pdfPath);
  return file && { file, filename: row.filename, etag: row.etag };
}

/**
 * What a download serves, without stamping or counting (a HEAD request): its name, its ETag, and its
 * size when known (a stamped copy not made yet has none).
 */
export async function describeDownload(
  purchaseId: string,
): Promise<{ filename: string; etag: string; size: number | undefined } | undefined> {
  const row = await downloadRow(purchaseId);
  if (!row) return undefined;
  const file = row.stamped ? await storedStampedCopy(row.stamped) : await getFile('private', row.pdfPath);
  if (!file && !row.stamped) return undefined;
  return { filename: row.filename, etag: row.etag, size: file?.size };
}

/**
 * Where the buyer's browser fetches the download's bytes straight from the bucket (a presigned URL
 * valid a few minutes, saved under the course's name), or undefined when the shop streams them itself.
 */
export function downloadLocation(download: Download): Promise<string> | undefined {
  return signedDownloadUrl(download.file.key, attachmentHeader(download.filename));
}

/** Counts one download and when it happened; false when the purchase stopped granting it meanwhile. */
export async function countDownload(purchaseId: string): Promise<boolean> {
  const counted = await db()
    .updateTable('purchases')
    .set({ download_count: sql`download_count + 1`, last_download_at: new Date() })
    .where('id', '=', purchaseId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return Number(counted.numUpdatedRows) > 0;
}

async function downloadRow(
  purchaseId: string,
): Promise<{ filename: string; pdfPath: string; etag: string; stamped: StampedPurchase | undefined } | undefined> {
  const row = await db()
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'courses.title',
      'courses.pdf_path',
      'courses.stamp_pdfs',
      'purchases.email',
      'purchases.full_name',
      'purchases.language',
    ])
    .where('purchases.id', '=', purchaseId)
    .where('purchases.status', '=', 'completed')
    .where(notAGiftOrder)
    .executeTakeFirst();
  if (!row?.pdf_path) return undefined;
  const stamped = row.stamp_pdfs
    ? { purchaseId, email: row.email, fullName: row.full_name, language: row.language, pdfPath: row.pdf_path }
    : undefined;
  const servedKey = stamped ? stampedKey(purchaseId, row.pdf_path) : row.pdf_path;
  return {
    filename: `${row.title}.pdf`,
    pdfPath: row.pdf_path,
    etag: `"${createHash('sha256').update(servedKey).digest('base64url').slice(0, 22)}"`,
    stamped,
  };
}

/** `Content-Disposition` for a course title in any script: an ASCII fallback and the UTF-8 name. */
export function attachmentHeader(filename: string): string {
  const ascii =
    filename
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\;]/g, '')
      .trim() || 'course.pdf';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function signature(purchaseId: string, expires: number): string {
  return sign(FILE_DOWNLOADS, `${purchaseId}.${expires}`);
}
