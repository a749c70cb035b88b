import { PDFDocument } from '@cantoo/pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endPdfWorker, IDLE_WORKER_MS, PDF_JOB_LIMITS, runPdfJob, startPdfWorker } from './pdf-job.ts';

const onePage = async () => {
  const document = await PDFDocument.create();
  document.addPage();
  return document.save();
};

afterEach(() => {
  vi.useRealTimers();
});

describe('the PDF worker', () => {
  it('is not handed a job while it ends for being idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(await runPdfJob({ kind: 'inspect', pdf: await onePage() })).toMatchObject({ ok: true });
    // Its idle time is up: it is ending, and the next job arrives before it has gone.
    vi.advanceTimersByTime(IDLE_WORKER_MS);
    expect(await runPdfJob({ kind: 'inspect', pdf: await onePage() })).toMatchObject({ ok: true });
  });

  it('ends itself when idle, after giving its heap back, instead of being terminated (exit code 1)', async () => {
    expect(await endPdfWorker(startPdfWorker(PDF_JOB_LIMITS))).toBe(0);
  });
});
