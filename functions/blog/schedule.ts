import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { announceChange } from '../http/cache-notify.ts';
import { BLOG_TAG } from '../http/cache-rules.ts';
import { lastSuccessOf, runPeriodicJob } from '../jobs/periodic.ts';

/** The periodic job (functions/jobs/shop-jobs.ts) whose last success is the scheduler's clock. */
export const BLOG_SCHEDULE_JOB = 'blog-schedule';

/**
 * Announces (purges the blog's cached pages on every instance, through cache-notify) when scheduled
 * posts' publish time has come since the job's last success. Pages already hide a post until its
 * time (the queries compare with now()); this only makes cached lists, feeds and sitemaps show it
 * without waiting for their cache to expire. Run under the job's row lock, which moves the window on
 * in the same transaction: with several instances, each window is announced once. Returns how many
 * posts went live.
 */
export async function announcePostsSinceLastRun(trx: Transaction<Database>): Promise<number> {
  const { count } = await trx
    .selectFrom('blog_posts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('is_published', '=', true)
    .where('published_at', '>', lastSuccessOf(BLOG_SCHEDULE_JOB))
    .where('published_at', '<=', sql<Date>`now()`)
    .executeTakeFirstOrThrow();
  if (Number(count) > 0) await announceChange(trx, BLOG_TAG);
  return Number(count);
}

/** Announces now, whatever the period, unless another instance is announcing (then 0). */
export async function announceDuePosts(database: Db): Promise<number> {
  return (await runPeriodicJob(database, BLOG_SCHEDULE_JOB, 0, announcePostsSinceLastRun)) ?? 0;
}
