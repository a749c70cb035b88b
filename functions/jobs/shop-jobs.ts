import type { Db } from '../db/database.ts';
import { pruneUsageLimits } from '../limits/limits.ts';
import { sendUpdateNoticeBatch } from '../courses/course-update-notices.ts';
import { BLOG_IMAGE_SWEEP_EVERY_MS, sweepUnusedBlogImages } from '../blog/image-sweep.ts';
import { announcePostsSinceLastRun, BLOG_SCHEDULE_JOB } from '../blog/schedule.ts';
import { deliverDueMail, MAIL_BATCH_SIZE, MAIL_INTERVAL_MS, type MailTransport } from '../mail/worker.ts';
import { prunePurges } from '../http/cache-notify.ts';
import { flushCourseViews } from '../funnel/view-counter.ts';
import { BROADCAST_TICK_MS, sendBroadcastTick } from '../audience/broadcast-sending.ts';
import { AUTOMATIC_MAILS_EVERY_MS, sendAutomaticMails } from '../audience/automatic-mails.ts';
import { deliverDueGifts, GIFT_BATCH_SIZE } from '../orders/gifts.ts';
import { scheduleNow } from '../dev-clock.ts';
import { periodicJob, rowsJob, startJobs, type Job } from './runner.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';

/** Each job's name (its `jobs` row and its log lines) and what the admin overview calls it. */
export const JOB_LABELS = {
  'mail-delivery': 'admin.health.jobMailDelivery',
  'course-update-notices': 'admin.health.jobCourseUpdateNotices',
  [BLOG_SCHEDULE_JOB]: 'admin.health.jobBlogSchedule',
  'blog-image-sweep': 'admin.health.jobBlogImageSweep',
  'usage-limit-pruning': 'admin.health.jobUsageLimitPruning',
  'cache-purge-pruning': 'admin.health.jobCachePurgePruning',
  'funnel-views': 'admin.health.jobFunnelViews',
  'broadcast-sending': 'admin.health.jobBroadcastSending',
  'automatic-mails': 'admin.health.jobAutomaticMails',
  'gift-delivery': 'admin.health.jobGiftDelivery',
} as const satisfies Record<string, MessageKey>;
type JobName = keyof typeof JOB_LABELS;
const named = (name: JobName) => name;

export interface JobSettings {
  /** Where mail goes; none: mail waits in the outbox (no SMTP and no dev mailbox). */
  transport: MailTransport | undefined;
  /** JOBS_INTERVAL_MS: how often each instance looks for work that is not mail. */
  jobsIntervalMs: number;
  /** BLOG_SCHEDULER_INTERVAL_MS: how often scheduled posts whose time came are announced. */
  blogIntervalMs: number;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Every job the server runs beside requests (decisions 28 and 31). Rows jobs run on every instance
 * and share the work through their rows' locks; periodic jobs run once per period across instances.
 */
export function shopJobs({ transport, jobsIntervalMs, blogIntervalMs }: JobSettings): Job[] {
  const every = (everyMs: number) => ({ everyMs, checkMs: jobsIntervalMs });
  return [
    ...(transport
      ? [
          rowsJob(named('mail-delivery'), MAIL_INTERVAL_MS, async (database) => {
            const { sent, failed } = await deliverDueMail(database, transport);
            return { done: sent + failed, full: sent + failed >= MAIL_BATCH_SIZE };
          }),
        ]
      : []),
    rowsJob(named('course-update-notices'), jobsIntervalMs, async (database) => {
      const batch = await sendUpdateNoticeBatch(database);
      // One run's batch at a time: a shutdown waits for one, and another run may be waiting.
      return { done: batch?.queued ?? 0, full: batch !== undefined };
    }),
    // Each instance adds the course page views it counted (functions/funnel/view-counter.ts).
    rowsJob(named('funnel-views'), jobsIntervalMs, async (database) => ({ done: await flushCourseViews(database), full: false })),
    // Gifts whose day has begun (decision 52), claimed row by row.
    rowsJob(named('gift-delivery'), jobsIntervalMs, async (database) => {
      const delivered = await deliverDueGifts(database, scheduleNow());
      return { done: delivered, full: delivered >= GIFT_BATCH_SIZE };
    }),
    periodicJob(BLOG_SCHEDULE_JOB, every(blogIntervalMs), announcePostsSinceLastRun),
    periodicJob(
      named('blog-image-sweep'),
      every(BLOG_IMAGE_SWEEP_EVERY_MS),
      async (trx) => (await sweepUnusedBlogImages(trx)).length,
    ),
    periodicJob(named('usage-limit-pruning'), every(HOUR_MS), pruneUsageLimits),
    periodicJob(named('cache-purge-pruning'), every(HOUR_MS), prunePurges),
    periodicJob(named('broadcast-sending'), every(BROADCAST_TICK_MS), (trx) => sendBroadcastTick(trx)),
    periodicJob(named('automatic-mails'), every(AUTOMATIC_MAILS_EVERY_MS), (trx) => sendAutomaticMails(trx)),
  ];
}

/** The one start of the background jobs (cli/services.ts); `stop()` waits for the runs under way. */
export function startBackgroundJobs(database: Db, settings: JobSettings): { stop(): Promise<void> } {
  return startJobs(database, shopJobs(settings));
}
