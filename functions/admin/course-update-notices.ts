import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { queueCourseUpdateNotice } from '../mail/course-update-notice.ts';
import { formatDate } from '../../src/lib/dates.ts';
import { asLanguage } from '../../src/i18n/languages.ts';

/**
 * "A new version of your course": one e-mail per buyer with an account, course and file version, in
 * the account's language, through the outbox (queueCourseUpdateNotice honours the account's opt-out).
 * Buyers are taken in batches, each batch one transaction that records its notices (unique per
 * course, version and account) and queues their mails: saving again, or two saves at once, never
 * mails anyone twice, and a save interrupted half-way is completed by the next one.
 */
export const NOTICE_BATCH_SIZE = 200;

/** Notifies the buyers of the course's current version who have not been told of it; how many mails were queued. */
export async function notifyBuyersOfCurrentVersion(courseId: string, batchSize = NOTICE_BATCH_SIZE): Promise<number> {
  const course = await db()
    .selectFrom('courses')
    .select(['title', 'pdf_version', 'pdf_updated_at'])
    .where('id', '=', courseId)
    .executeTakeFirst();
  // Only a replaced file is news; the first file is what everyone bought.
  if (!course?.pdf_updated_at) return 0;
  const updatedAt = course.pdf_updated_at;
  let mailed = 0;
  for (;;) {
    const batch = await db()
      .transaction()
      .execute(async (trx) => {
        const readers = await trx
          .selectFrom('purchases')
          .innerJoin('users', 'users.id', 'purchases.user_id')
          .select(['users.id', 'users.email', 'users.full_name', 'users.language', 'users.course_update_emails'])
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
                  .where('course_update_notices.pdf_version', '=', course.pdf_version)
                  .whereRef('course_update_notices.user_id', '=', 'users.id'),
              ),
            ),
          )
          .orderBy('users.id')
          .limit(batchSize)
          .execute();
        let queued = 0;
        for (const reader of readers) {
          const language = asLanguage(reader.language);
          const wantsUpdates = reader.course_update_emails;
          // A save running at the same time may have taken this reader: then it mails them, not this one.
          const inserted = await trx
            .insertInto('course_update_notices')
            .values({ course_id: courseId, pdf_version: course.pdf_version, user_id: reader.id, mailed: wantsUpdates })
            .onConflict((conflict) => conflict.doNothing())
            .returning('user_id')
            .executeTakeFirst();
          if (!inserted) continue;
          const sent = await queueCourseUpdateNotice(
            trx,
            { userId: reader.id, email: reader.email, name: reader.full_name, language, wantsUpdates },
            { title: course.title, updatedOn: formatDate(updatedAt, language) },
          );
          if (sent) queued++;
        }
        return { found: readers.length, queued };
      });
    mailed += batch.queued;
    if (batch.found < batchSize) return mailed;
  }
}
