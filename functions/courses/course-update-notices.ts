import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { queueCourseUpdateNotice } from '../mail/course-update-notice.ts';
import { log } from '../log.ts';
import { formatDate } from '../../src/lib/dates.ts';
import { asLanguage } from '../../src/i18n/languages.ts';

/**
 * "A new version of your course": one e-mail per buyer with an account, course and file version, in
 * the account's language, through the outbox (queueCourseUpdateNotice honours the account's opt-out).
 *
 * The admin's save only records the intent (`requestUpdateNotices`, a `course_update_runs` row in the
 * transaction that makes the new version), so it returns at once whatever the number of buyers. A
 * job in every server instance (`course-update-notices`, functions/jobs/shop-jobs.ts) expands runs batch by batch
 * (`sendUpdateNoticeBatch`): each batch is one transaction that holds the run's row lock (SKIP LOCKED:
 * another instance takes another run, or waits for the next tick), records its notices (unique per
 * course, version and account) and queues their mails. A crash rolls back the batch in flight; the
 * next tick of any instance resumes the run where the last committed batch ended.
 */
export const NOTICE_BATCH_SIZE = 200;

/** The accounts that bought the course before `updatedAt` and have no notice of `version` yet. */
function untoldBuyers(database: Db, courseId: string, version: number, updatedAt: Date) {
  return (
    database
      .selectFrom('purchases')
      .innerJoin('users', 'users.id', 'purchases.user_id')
      .where('purchases.course_id', '=', courseId)
      .where('purchases.status', '=', 'completed')
      // The same rule as the library: a guest purchase belongs to an account once its address is proved.
      .where((eb) => eb.or([eb('purchases.guest', '=', false), eb('users.email_verified', '=', true)]))
      // Bought before the new version: a later buyer got it from the start.
      .where(sql<Date>`coalesce(purchases.completed_at, purchases.created_at)`, '<', updatedAt)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('course_update_notices')
              .select('course_update_notices.user_id')
              .where('course_update_notices.course_id', '=', courseId)
              .where('course_update_notices.pdf_version', '=', version)
              .whereRef('course_update_notices.user_id', '=', 'users.id'),
          ),
        ),
      )
  );
}

/**
 * Inside the save's transaction (after the course row is written): asks the worker to tell the
 * buyers of the course's current version who have not been told. Returns how many of them want
 * these mails (what the admin is told will be e-mailed). A replaced file only: the first one is what
 * everyone bought. A run still under way already covers everyone; a finished one is reopened (buyers
 * already told are skipped by the notices' key).
 */
export async function requestUpdateNotices(trx: Transaction<Database>, courseId: string): Promise<number> {
  const course = await trx
    .selectFrom('courses')
    .select(['pdf_version', 'pdf_updated_at'])
    .where('id', '=', courseId)
    .executeTakeFirst();
  if (!course?.pdf_updated_at) return 0;
  const counted = await untoldBuyers(trx, courseId, course.pdf_version, course.pdf_updated_at)
    .select([
      sql<string>`count(DISTINCT users.id)`.as('untold'),
      sql<string>`count(DISTINCT users.id) FILTER (WHERE users.course_update_emails)`.as('wanting'),
    ])
    .executeTakeFirstOrThrow();
  if (Number(counted.untold) === 0) return 0;
  const buyers = Number(counted.wanting);
  const run = await trx
    .selectFrom('course_update_runs')
    .select('finished_at')
    .where('course_id', '=', courseId)
    .where('pdf_version', '=', course.pdf_version)
    .executeTakeFirst();
  if (run && run.finished_at === null) return buyers;
  await trx
    .insertInto('course_update_runs')
    .values({
      course_id: courseId,
      pdf_version: course.pdf_version,
      version_updated_at: course.pdf_updated_at,
      buyer_count: buyers,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['course_id', 'pdf_version'])
        .doUpdateSet({ buyer_count: buyers, requested_at: new Date(), finished_at: null }),
    )
    .execute();
  return buyers;
}

export interface NoticeBatch {
  courseId: string;
  pdfVersion: number;
  /** Buyers considered in this batch (some may have turned these mails off). */
  considered: number;
  /** Mails queued to the outbox. */
  queued: number;
  /** Whether the run is complete after this batch. */
  finished: boolean;
}

/**
 * One batch of one run waiting for it: undefined when no run is waiting (or every waiting run is
 * being worked on by another instance right now).
 */
export async function sendUpdateNoticeBatch(database: Db, batchSize = NOTICE_BATCH_SIZE): Promise<NoticeBatch | undefined> {
  return database.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom('course_update_runs')
      .innerJoin('courses', 'courses.id', 'course_update_runs.course_id')
      .select([
        'course_update_runs.course_id',
        'course_update_runs.pdf_version',
        'course_update_runs.version_updated_at',
        'courses.title',
      ])
      .where('course_update_runs.finished_at', 'is', null)
      .orderBy('course_update_runs.requested_at')
      .limit(1)
      .forUpdate('course_update_runs')
      .skipLocked()
      .executeTakeFirst();
    if (!run) return undefined;
    const readers = await untoldBuyers(trx, run.course_id, run.pdf_version, run.version_updated_at)
      .select(['users.id', 'users.email', 'users.full_name', 'users.language', 'users.course_update_emails'])
      .distinct()
      .orderBy('users.id')
      .limit(batchSize)
      .execute();
    let queued = 0;
    for (const reader of readers) {
      const language = asLanguage(reader.language);
      const wantsUpdates = reader.course_update_emails;
      const notice = { course_id: run.course_id, pdf_version: run.pdf_version, user_id: reader.id };
      // One buyer's mail that cannot be made (a malformed address) must not hold up everyone else's
      // forever: it is undone alone, logged, and the buyer recorded as not mailed.
      await sql`SAVEPOINT notice`.execute(trx);
      try {
        // The key is the last word: whatever ran before (an older synchronous save), nobody is mailed twice.
        const inserted = await trx
          .insertInto('course_update_notices')
          .values({ ...notice, mailed: wantsUpdates })
          .onConflict((conflict) => conflict.doNothing())
          .returning('user_id')
          .executeTakeFirst();
        if (inserted) {
          const sent = await queueCourseUpdateNotice(
            trx,
            { userId: reader.id, email: reader.email, name: reader.full_name, language, wantsUpdates },
            { title: run.title, updatedOn: formatDate(run.version_updated_at, language) },
          );
          if (sent) queued++;
        }
        await sql`RELEASE SAVEPOINT notice`.execute(trx);
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT notice`.execute(trx);
        log.warn({ err: error, ...notice }, 'could not queue a course update notice; the buyer is recorded as not mailed');
        await trx
          .insertInto('course_update_notices')
          .values({ ...notice, mailed: false })
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
    }
    const finished = readers.length < batchSize;
    if (finished) {
      await trx
        .updateTable('course_update_runs')
        .set({ finished_at: new Date() })
        .where('course_id', '=', run.course_id)
        .where('pdf_version', '=', run.pdf_version)
        .execute();
    }
    return { courseId: run.course_id, pdfVersion: run.pdf_version, considered: readers.length, queued, finished };
  });
}

/**
 * Every waiting batch at once, until no run waits (the course-update-notices job does the same a
 * batch at a time, so a shutdown waits for one); how many mails were queued and how many batches ran.
 */
export async function sendWaitingUpdateNotices(
  database: Db,
  { batchSize = NOTICE_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<{ batches: number; queued: number }> {
  let batches = 0;
  let queued = 0;
  let batch: NoticeBatch | undefined;
  while ((batch = await sendUpdateNoticeBatch(database, batchSize))) {
    batches++;
    queued += batch.queued;
  }
  return { batches, queued };
}
