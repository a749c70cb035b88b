import { useTranslation } from '../../islands/I18nIsland.tsx';
import type { AdminCourseView } from '../../../lib/admin/courses.schema.ts';

/**
 * The current version's "new version" e-mails: being sent by the server's background worker, or
 * sent. A live region, so "Notifying N buyers…" turning into "N buyers notified" is announced.
 */
export function UpdateNotices({ notices }: { notices: NonNullable<AdminCourseView['updateNotices']> }) {
  const { t } = useTranslation();
  return (
    <span role="status" className={notices.sending ? 'font-semibold text-amber-800' : 'text-emerald-800'}>
      {t(notices.sending ? 'admin.courses.noticesSending' : 'admin.courses.noticesSent', { count: notices.buyers })}
    </span>
  );
}
