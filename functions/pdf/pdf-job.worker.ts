import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { installDecodeBudget, startDecodeBudget } from './decode-budget.ts';
import { transferListOf, type PdfJobMessage, type PdfWorkerEnd } from './pdf-job.ts';
import { inspectForStamping, stampDocument, StampError } from './stamp-document.ts';
import { previewDocument } from './preview-document.ts';

/** The PDF worker (started by pdf-job.ts): one job at a time in, its result out. */
installDecodeBudget();

// On Linux a nice value belongs to a thread: this lowers only the worker's, so the server's own thread
// wins the CPU while a PDF is parsed (elsewhere it would lower the whole server, so it is left alone).
const WORKER_NICENESS = 10;
if (process.platform === 'linux') os.setPriority(0, WORKER_NICENESS);

parentPort!.on('message', (message: PdfJobMessage | PdfWorkerEnd) => void ('end' in message ? end() : runJob(message)));

/** Answers the job's result; an error other than a StampError is a bug, and fails the worker. */
async function runJob({ job, decodedBytes }: PdfJobMessage): Promise<void> {
  startDecodeBudget(decodedBytes);
  const bytes = job.pdf;
  try {
    // The job's bytes go to the parser, and nothing here holds them once it is done with them.
    const original = { pdf: bytes };
    job.pdf = new Uint8Array();
    if (job.kind === 'inspect') {
      parentPort!.postMessage({ ok: true, ...(await inspectForStamping(original)) });
    } else if (job.kind === 'preview') {
      const preview = await previewDocument(original, job.preview);
      parentPort!.postMessage({ ok: true, preview }, transferListOf(preview));
    } else {
      const stamped = await stampDocument(original, job.stamp);
      parentPort!.postMessage({ ok: true, stamped }, transferListOf('update' in stamped ? stamped.update : stamped.whole));
    }
  } catch (error) {
    if (!(error instanceof StampError)) throw error;
    parentPort!.postMessage({ ok: false, problem: error.problem });
  } finally {
    release(bytes);
  }
}

/**
 * Gives the file's memory back now: an idle worker runs no garbage collection, and a queue of first
 * downloads of a 45 MB course would otherwise keep several dead copies until one runs.
 */
function release(bytes: Uint8Array): void {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && !buffer.detached && bytes.byteLength === buffer.byteLength) buffer.transfer(0);
}

/**
 * Ends the worker after a memory-reducing collection, which returns the heap's free pages to the system
 * at once (an ended worker's heap would stay resident for 8 s in V8's page pool: endPdfWorker). Node
 * offers that collection to JavaScript only through the inspector protocol: an in-process session,
 * which opens no port. Without an inspector (a Node built without one, or the permission model), the
 * worker just ends.
 */
async function end(): Promise<void> {
  try {
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.collectGarbage');
    session.disconnect();
  } catch {
    // The pool gives the pages back 8 s later instead.
  }
  process.exit(0);
}
