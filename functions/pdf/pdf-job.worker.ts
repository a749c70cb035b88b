import { parentPort } from 'node:worker_threads';
import { installDecodeBudget, startDecodeBudget } from './decode-budget.ts';
import { transferListOf, type PdfJobMessage } from './pdf-job.ts';
import { inspectForStamping, stampDocument, StampError } from './stamp-document.ts';

/** The PDF worker (started by pdf-job.ts): one job at a time in, its result out. */
installDecodeBudget();

parentPort!.on('message', (message: PdfJobMessage) => void runJob(message));

/** Answers the job's result; an error other than a StampError is a bug, and fails the worker. */
async function runJob({ job, decodedBytes }: PdfJobMessage): Promise<void> {
  startDecodeBudget(decodedBytes);
  try {
    if (job.kind === 'inspect') {
      parentPort!.postMessage({ ok: true, ...(await inspectForStamping(job.pdf)) });
    } else {
      const pdf = await stampDocument(job.pdf, job.stamp);
      parentPort!.postMessage({ ok: true, pdf }, transferListOf(pdf));
    }
  } catch (error) {
    if (!(error instanceof StampError)) throw error;
    parentPort!.postMessage({ ok: false, problem: error.problem });
  }
}
