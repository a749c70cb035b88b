import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { BLOG_TAG } from '../http/cache-rules.ts';
import { log } from '../log.ts';

/**
 * Announces (purges the blog's cached pages on every instance, through cache-notify) when scheduled
 * posts' publish time has come since the last check. Pages already hide a post until its time (the
 * queries compare with now()); this only makes cached lists, feeds and sitemaps show it without
 * waiting for their cache to expire. The clock row is locked (SKIP LOCKED): with several instances,
 * one of them announces each window, once; the others skip that tick. Returns how many posts went live.
 */
export async function announceDuePosts(database: Db): Promise<number> {
  // The clock starts at the first tick (a migration row would make a fresh database hold data).
  await database
    .insertInto('blog_schedule_clock')
    .defaultValues()
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  return database.transaction().execute(async (trx) => {
    const clock = await trx.selectFrom('blog_schedule_clock').select('checked_until').forUpdate().skipLocked().executeTakeFirst();
    if (!clock) return 0;
    const { count } = await trx
      .selectFrom('blog_posts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('is_published', '=', true)
      .where('published_at', '>', clock.checked_until)
      .where('published_at', '<=', sql<Date>`now()`)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('blog_schedule_clock')
      .set({ checked_until: sql<Date>`now()` })
      .execute();
    if (Number(count) > 0) await announceChange(trx, BLOG_TAG);
    return Number(count);
  });
}

/** Runs `announceDuePosts` every `intervalMs` in this server process; a failed tick is logged and retried at the next. */
export function startBlogScheduler(database: Db, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = announceDuePosts(database)
      .then((count) => count > 0 && log.info({ count }, 'scheduled blog posts went live'))
      .catch((error: unknown) => log.warn({ err: error }, 'blog scheduler tick failed'));
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
