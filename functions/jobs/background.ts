import type { Db } from '../db/database.ts';
import { sendWaitingUpdateNotices } from '../admin/course-update-notices.ts';
import { BLOG_IMAGE_SWEEP_EVERY_MS, sweepUnusedBlogImages } from '../blog/image-sweep.ts';
import { log } from '../log.ts';
import { runPeriodicTask } from './periodic.ts';

/**
 * The work each server process does beside answering requests (decision 28), every `intervalMs`:
 * expanding "notify buyers" runs into mails (course-update-notices.ts; each batch locks its run, so
 * instances share the work and never repeat it) and, once an hour across all instances, deleting blog
 * images nobody uses (a periodic task with a one-row lock). A tick waits for the previous one to end;
 * a failed tick is logged and the work is retried at the next.
 */
export function startBackgroundJobs(database: Db, intervalMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const tick = async () => {
    try {
      const notices = await sendWaitingUpdateNotices(database, { stopping: () => stopped });
      if (notices.batches > 0) log.info(notices, 'course update notices queued');
    } catch (error) {
      log.warn({ err: error }, 'course update notices tick failed');
    }
    if (stopped) return;
    try {
      await runPeriodicTask(database, 'blog-image-sweep', BLOG_IMAGE_SWEEP_EVERY_MS, (trx) => sweepUnusedBlogImages(trx));
    } catch (error) {
      log.warn({ err: error }, 'blog image sweep failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = tick().finally(schedule);
    }, intervalMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
