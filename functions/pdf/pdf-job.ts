import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Stamp, StampedPdf, StampProblem } from './stamp-document.ts';
import type { PreviewSpec } from './preview-document.ts';

/**
 * Runs one PDF job (parse, check, stamp) in a worker thread of its own, with limits: a wall-clock
 * timeout that terminates the worker, a heap limit, and a budget for what pdf-lib may decode (its
 * buffers are outside the heap limit; decode-budget.ts). The server's event loop never parses a PDF,
 * so a hostile file costs one worker and at most these limits, never the shop's other visitors.
 * Jobs take turns (PDF_JOB_CONCURRENCY): each holds a whole document in memory. A worker past a limit
 * is terminated; one that finished waits a little for the next job, then exits. See docs/decisions/0017-stamped-pdfs-and-course-versions.md.
 */
export interface PdfJobLimits {
  timeoutMs: number;
  heapMb: number;
  decodedBytes: number;
}

export const PDF_JOB_LIMITS: PdfJobLimits = {
  // A 50 MB, 300-page course stamps in about 1 s here; a job 30 times slower is refused.
  timeoutMs: 30_000,
  // A 45 MB, 300-page course stamps within 64 MB of heap, a 2,000-page one within 128 MB.
  heapMb: 256,
  // Object and cross-reference streams of real courses expand to a few megabytes.
  decodedBytes: 64 * 1024 * 1024,
};

/** PDF jobs at once in one process: each holds a whole document in memory. */
export const PDF_JOB_CONCURRENCY = 1;

export type PdfJob =
  | { kind: 'inspect'; pdf: Uint8Array }
  | { kind: 'stamp'; pdf: Uint8Array; stamp: Stamp }
  | { kind: 'preview'; pdf: Uint8Array; preview: PreviewSpec };

export type PdfJobResult<J extends PdfJob> =
  | (J extends { kind: 'stamp' }
      ? { ok: true; stamped: StampedPdf }
      : J extends { kind: 'preview' }
        ? { ok: true; preview: Uint8Array }
        : { ok: true; signed: boolean })
  | { ok: false; problem: StampProblem };

/** What the worker is sent: the job and the decode budget it runs within. */
export interface PdfJobMessage {
  job: PdfJob;
  decodedBytes: number;
}

/** Tells an idle worker to give its heap back and end (endPdfWorker). */
export interface PdfWorkerEnd {
  end: true;
}

// From the project folder the shop runs in (as the migrations are): the server bundle in dist/ has no
// worker file of its own, and Node runs this TypeScript as it is, in development and in production.
const WORKER_FILE = path.resolve('functions/pdf/pdf-job.worker.ts');
const YOUNG_GENERATION_MB = 16;
/**
 * A worker whose job succeeded waits this long for the next one (starting a worker and loading pdf-lib
 * costs a few hundred milliseconds), then exits and gives its memory back.
 */
export const IDLE_WORKER_MS = 10_000;
/** How long an idle worker may take to give its heap back and end before it is terminated. */
const END_TIMEOUT_MS = 2_000;

let idle: { worker: Worker; limits: PdfJobLimits; timer: NodeJS.Timeout } | undefined;

/**
 * Runs `job` in the PDF worker and answers its result, or `limits` when it took too long or too much
 * memory (the worker is then terminated). `handOver`: the job's bytes move to the worker (the caller's
 * array is emptied) instead of being copied, for a caller that no longer needs them.
 */
export function runPdfJob<J extends PdfJob>(
  job: J,
  { limits = PDF_JOB_LIMITS, handOver = false }: { limits?: PdfJobLimits; handOver?: boolean } = {},
): Promise<PdfJobResult<J>> {
  const worker = takeWorker(limits);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (keep: boolean, finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      forgetListeners(worker);
      if (keep) {
        keepIdle(worker, limits);
        finish();
      } else {
        // The next job starts only once this worker and its memory are gone.
        void worker.terminate().then(finish, finish);
      }
    };
    const timer = setTimeout(() => settle(false, () => resolve({ ok: false, problem: 'limits' })), limits.timeoutMs);
    // pdf-lib keeps every name and reference it meets for the life of the worker: one that refused a
    // file (hostile, perhaps) is not trusted with the next.
    worker.once('message', (result: PdfJobResult<J>) => settle(result.ok, () => resolve(result)));
    worker.once('error', (error: Error & { code?: string }) =>
      settle(false, () =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve({ ok: false, problem: 'limits' }) : reject(error),
      ),
    );
    worker.once('exit', (code) =>
      settle(false, () => reject(new Error(`The PDF worker stopped (exit code ${code}) without an answer`))),
    );
    const message: PdfJobMessage = { job, decodedBytes: limits.decodedBytes };
    worker.postMessage(message, handOver ? transferListOf(job.pdf) : []);
  });
}

function takeWorker(limits: PdfJobLimits): Worker {
  if (idle && idle.limits === limits) {
    const { worker, timer } = idle;
    idle = undefined;
    clearTimeout(timer);
    forgetListeners(worker);
    worker.ref();
    return worker;
  }
  return startPdfWorker(limits);
}

export function startPdfWorker(limits: PdfJobLimits): Worker {
  return new Worker(WORKER_FILE, {
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
}

/**
 * Ends an idle worker once it has given its heap back (a memory-reducing collection, in
 * pdf-job.worker.ts); one that does not end in time is terminated. Answers its exit code. Terminated
 * at once, a worker that had just stamped a 45 MB course left its heap (40 to 100 MB) resident for 8 s
 * more: V8 keeps an ended thread's pages in a pool for other threads to reuse, and frees them 8 s
 * later (V8 13.6); the collection frees them at once.
 */
export function endPdfWorker(worker: Worker): Promise<number> {
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const timer = setTimeout(() => void worker.terminate(), END_TIMEOUT_MS);
  timer.unref();
  worker.postMessage({ end: true } satisfies PdfWorkerEnd);
  return exited.finally(() => clearTimeout(timer));
}

/** This module's listeners, by name: Node keeps its own on a worker (they start and stop its port). */
function forgetListeners(worker: Worker): void {
  for (const event of ['message', 'error', 'exit']) worker.removeAllListeners(event);
}

function keepIdle(worker: Worker, limits: PdfJobLimits): void {
  if (idle) void idle.worker.terminate();
  // An idle worker never keeps a process (a command, a test) from exiting.
  worker.unref();
  worker.once('error', () => {});
  worker.once('exit', () => {
    if (idle?.worker === worker) idle = undefined;
  });
  const timer = setTimeout(() => {
    // No longer offered before it is gone: a job taking it while it ends would be lost with it.
    if (idle?.worker === worker) idle = undefined;
    void endPdfWorker(worker);
  }, IDLE_WORKER_MS);
  timer.unref();
  idle = { worker, limits, timer };
}

/**
 * The buffer to move with a message instead of copying it, when `bytes` is all of it: a small Buffer
 * shares Node's pool with others, and moving it would empty theirs.
 */
export function transferListOf(bytes: Uint8Array): ArrayBuffer[] {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
}

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when a PDF job slot is free (PDF_JOB_CONCURRENCY), in arrival order. */
export async function inPdfTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PDF_JOB_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
