import type { Db } from '../db/database.ts';
import { siteUrl } from '../env.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { queueMail } from './outbox.ts';
import { unsubscribeLinks } from './preferences.ts';
import { renderMail } from './template.ts';
import { courseUpdate } from './templates/index.ts';

export interface UpdateNoticeReader {
  userId: string;
  email: string;
  name: string;
  language: Language;
  /** The account's choice (users.course_update_emails). */
  wantsUpdates: boolean;
}

/**
 * Queues the "new version of your course" notice to one buyer, unless they turned these e-mails
 * off: the one optional mail, carrying its one-click unsubscribe. Returns whether it was queued.
 */
export async function queueCourseUpdateNotice(
  database: Db,
  reader: UpdateNoticeReader,
  course: { title: string; updatedOn: string },
): Promise<boolean> {
  if (!reader.wantsUpdates) return false;
  const mail = await renderMail(
    courseUpdate,
    {
      name: reader.name || reader.email,
      courseTitle: course.title,
      updatedOn: course.updatedOn,
      libraryUrl: `${siteUrl()}/${reader.language}/dashboard/courses`,
    },
    { to: reader.email, language: reader.language, unsubscribe: unsubscribeLinks(reader.userId, reader.language) },
    database,
  );
  await queueMail(database, mail);
  return true;
}
