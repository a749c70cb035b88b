import { orderReference } from '../orders/orders.ts';
import { log } from '../log.ts';
import { stampPdf, StampError, type StampedPdf } from '../pdf/stamp.ts';
import { deleteFile, getFile, putCopyWithTail, putFile, type StoredFile } from '../storage/storage.ts';
import { getT } from '../../src/i18n/i18n.ts';
import { asLanguage } from '../../src/i18n/languages.ts';

/**
 * Each buyer's own copy of a course PDF, stamped on their first download of a file version and kept
 * in private storage: a repeat download is a file read. The key names the purchase and the stored
 * original (a new version is a new original key), and the stamp's layout, so a changed layout stamps afresh.
 */
const STAMP_LAYOUT = 'v1';

export interface StampedPurchase {
  purchaseId: string;
  email: string;
  fullName: string;
  /** The purchase's language: the footer line is written in it. */
  language: string;
  /** The current original's storage key. */
  pdfPath: string;
}

export function stampedKey(purchaseId: string, pdfPath: string): string {
  return `stamped/${STAMP_LAYOUT}/${purchaseId}/${pdfPath}`;
}

/** The footer line, in the purchase's language: "Licensed to <name> <e-mail> · order <reference>". */
export function licenceLine(purchase: Pick<StampedPurchase, 'purchaseId' | 'email' | 'fullName' | 'language'>): string {
  const who = [purchase.fullName.trim(), purchase.email].filter(Boolean).join(' ');
  return getT(asLanguage(purchase.language))('stamp.line', { who, reference: orderReference(purchase.purchaseId) });
}

// First downloads of one copy in flight in this process: a second request waits for the first stamp.
const inFlight = new Map<string, Promise<StoredFile | undefined>>();
// Originals found unstampable in this process: not loaded and tried again on every download.
const unstampable = new Set<string>();

/**
 * The buyer's stamped copy, streamed from storage: kept from an earlier download, or stamped now from
 * the original (in the PDF worker, in turn; the original is read only when the turn comes) and
 * stored first as a copy of the original, made inside the storage service, followed by the stamp's
 * update, so no request holds or streams a whole copy. Undefined when the original is missing. An original
 * that cannot be stamped (stored before uploads were checked) is served as it is, and logged, rather
 * than leaving the buyer without their course.
 */
export function stampedCopy(purchase: StampedPurchase): Promise<StoredFile | undefined> {
  const key = stampedKey(purchase.purchaseId, purchase.pdfPath);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = cachedOrStamped(key, purchase).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** The stored copy, without stamping one (undefined when the buyer's first download has not happened). */
export function storedStampedCopy(purchase: Pick<StampedPurchase, 'purchaseId' | 'pdfPath'>): Promise<StoredFile | undefined> {
  return getFile('private', stampedKey(purchase.purchaseId, purchase.pdfPath));
}

async function cachedOrStamped(key: string, purchase: StampedPurchase): Promise<StoredFile | undefined> {
  const cached = await getFile('private', key);
  if (cached) return cached;
  if (unstampable.has(purchase.pdfPath)) return getFile('private', purchase.pdfPath);
  let stamped: StampedPdf | undefined;
  try {
    stamped = await stampPdf(
      async () => {
        const original = await getFile('private', purchase.pdfPath);
        return original?.read();
      },
      {
        line: licenceLine(purchase),
        orderReference: orderReference(purchase.purchaseId),
        licensedTo: `${purchase.fullName.trim() || purchase.email} <${purchase.email}>`,
      },
    );
  } catch (error) {
    if (!(error instanceof StampError)) throw error;
    unstampable.add(purchase.pdfPath);
    log.warn({ purchaseId: purchase.purchaseId, problem: error.problem, err: error.cause }, 'served a course PDF unstamped');
    return getFile('private', purchase.pdfPath);
  }
  if (!stamped) return undefined;
  if ('whole' in stamped) await putFile('private', key, stamped.whole);
  else if (!(await getFile('private', purchase.pdfPath))) return undefined;
  else await putCopyWithTail('private', key, purchase.pdfPath, stamped.update);
  return getFile('private', key);
}

/** Deletes the stamped copies of an original that is no longer any course's current file. */
export async function deleteStampedCopies(purchaseIds: string[], pdfPath: string): Promise<void> {
  for (const purchaseId of purchaseIds) {
    try {
      await deleteFile('private', stampedKey(purchaseId, pdfPath));
    } catch (error) {
      // The new version is committed; a copy left behind costs space, never access.
      log.warn({ purchaseId, err: error }, 'could not delete a stamped copy');
    }
  }
}
