import { inPdfTurn, runPdfJob } from './pdf-job.ts';
import { StampError, type Stamp, type StampedPdf, type StampProblem } from './stamp-document.ts';

/**
 * Stamps a course PDF for its buyer, and checks uploads can be stamped: each in the PDF worker, with
 * its limits, one job at a time per process (pdf-job.ts); the work itself is in stamp-document.ts.
 * See docs/decisions/0017-stamped-pdfs-and-course-versions.md.
 */
export { StampError, type Stamp, type StampedPdf, type StampProblem };

/**
 * Stamps the PDF `read` gives, read only once this stamp's turn has come, so a queue of first
 * downloads holds no files while it waits; undefined when `read` finds nothing. The bytes are handed
 * to the worker (the array read is emptied). Usually answers an update to append to the original
 * (stamp-document.ts StampedPdf). Throws StampError when the file cannot be stamped.
 */
export function stampPdf(read: () => Promise<Uint8Array | undefined>, stamp: Stamp): Promise<StampedPdf | undefined> {
  return inPdfTurn(async () => {
    const pdf = await read();
    if (!pdf) return undefined;
    const result = await runPdfJob({ kind: 'stamp', pdf, stamp }, { handOver: true });
    if (!result.ok) throw new StampError(result.problem);
    return result.stamped;
  });
}

/** The stamped file's bytes, whole, from its original and its stamp (the shop itself streams them into storage). */
export function stampedBytes(original: Uint8Array, stamped: StampedPdf): Uint8Array {
  return 'update' in stamped ? Buffer.concat([original, stamped.update]) : stamped.whole;
}

/**
 * Whether a PDF can be stamped, judged by stamping it once (for a sample buyer) within the PDF
 * worker's limits: an upload the shop could not stamp is refused before any buyer meets it. `signed`:
 * the file carries a digital signature, which any stamp breaks (the caller decides, as only a course
 * that stamps cares).
 */
export function checkStampable(bytes: Uint8Array): Promise<{ ok: true; signed: boolean } | { ok: false; problem: StampProblem }> {
  return inPdfTurn(() => runPdfJob({ kind: 'inspect', pdf: bytes }));
}
