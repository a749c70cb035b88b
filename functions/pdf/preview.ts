import { inPdfTurn, runPdfJob } from './pdf-job.ts';
import { StampError } from './stamp-document.ts';
import type { PreviewSpec } from './preview-document.ts';

export type { PreviewSpec };

/**
 * A course's free preview (preview-document.ts), made in the PDF worker with its limits, in turn with
 * stamps (pdf-job.ts): the course file is read only when the turn comes and handed to the worker.
 * Undefined when `read` finds nothing; throws StampError when the file cannot be read.
 */
export function previewPdf(read: () => Promise<Uint8Array | undefined>, preview: PreviewSpec): Promise<Uint8Array | undefined> {
  return inPdfTurn(async () => {
    const pdf = await read();
    if (!pdf) return undefined;
    const result = await runPdfJob({ kind: 'preview', pdf, preview }, { handOver: true });
    if (!result.ok) throw new StampError(result.problem);
    return result.preview;
  });
}
