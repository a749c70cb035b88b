import { useEffect, useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { DeleteDialog, Dialog } from '../Dialog.tsx';
import { AdminTable, RowAction } from '../AdminTable.tsx';
import { CourseEditor } from './CourseEditor.tsx';
import { OfferEditor } from './OfferEditor.tsx';
import { UpdateNotices } from './UpdateNotices.tsx';
import { ListPager } from '../ListPager.tsx';
import { ListToolbar } from '../ListToolbar.tsx';
import { useConfirm } from '../use-confirm.ts';
import { useRemoteList, type ListQuery } from '../use-remote-list.ts';
import { requestJson } from '../../../lib/api-client.ts';
import type { AdminCoursePage, AdminCourseView, BundleChoice } from '../../../lib/admin/courses.schema.ts';
import type { CategoryOption } from '../../../lib/course-view.ts';
import { COVER_FALLBACK_URL } from '../../../lib/course-links.ts';
import { formatMoney } from '../../../lib/money.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  initial: AdminCoursePage;
  categories: CategoryOption[];
  categoriesUrl: string;
  bundleChoices: BundleChoice[];
}

const API = '/api/admin/courses';
/** While a course's buyers are being notified (by the server's background worker), the list refreshes this often. */
const NOTICES_REFRESH_MS = 3000;

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.actions',
  'admin.courses.',
  'admin.edit',
  'admin.save',
  'admin.saving',
  'catalogue.next',
  'catalogue.pageOf',
  'catalogue.pagination',
  'catalogue.previous',
  'course.free',
  'courseLanguage.',
  'difficulty.',
);

export default function CoursesAdminIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <CoursesAdmin {...props} />
    </I18nIsland>
  );
}

function fetchCourses(lang: Language, { search, page }: ListQuery) {
  const params = new URLSearchParams({ lang, page: String(page) });
  if (search) params.set('search', search);
  return requestJson<AdminCoursePage>('GET', `${API}?${params.toString()}`);
}

type Editing = { mode: 'create' } | { mode: 'edit'; course: AdminCourseView };

function CoursesAdmin({ lang, initial, categories, categoriesUrl, bundleChoices }: Props) {
  const { t } = useTranslation();
  const list = useRemoteList(
    initial,
    (query) => fetchCourses(lang, query),
    () => showToast('error', t('admin.courses.fetchFailed')),
  );
  const { data, query, setData } = list;
  const notifying = data.courses.some((course) => course.updateNotices?.sending);

  // "Notifying N buyers…" turns into "N buyers notified" without a reload: a quiet refresh of the
  // same page (no loading state), dropped if the admin moved to another search or page meanwhile.
  useEffect(() => {
    if (!notifying) return;
    let current = true;
    const timer = setTimeout(() => {
      void fetchCourses(lang, query).then((result) => {
        if (current && result.ok) setData(result.data);
      });
    }, NOTICES_REFRESH_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [notifying, data, query, setData, lang]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [blocked, setBlocked] = useState<AdminCourseView | null>(null);
  const [toggling, setToggling] = useState<ReadonlySet<string>>(new Set());

  const replaceCourse = (id: string, change: Partial<AdminCourseView>) =>
    list.setData((current) => ({
      ...current,
      courses: current.courses.map((course) => (course.id === id ? { ...course, ...change } : course)),
    }));

  const toggle = async (course: AdminCourseView, isActive = !course.isActive) => {
    setToggling((current) => new Set(current).add(course.id));
    const result = await requestJson('PATCH', `${API}/${course.id}/status`, { isActive });
    setToggling((current) => {
      const next = new Set(current);
      next.delete(course.id);
      return next;
    });
    if (!result.ok) return showToast('error', t('admin.courses.statusFailed'));
    replaceCourse(course.id, { isActive });
    if (blocked?.id === course.id) setBlocked(null);
    showToast('success', t(isActive ? 'admin.courses.activated' : 'admin.courses.deactivated'));
  };

  // A bought course cannot be deleted: the dialog closes and the page offers to deactivate it instead.
  const remove = useConfirm<AdminCourseView>(
    async (course) => {
      const result = await requestJson('DELETE', `${API}/${course.id}`);
      if (result.ok) {
        showToast('success', t('admin.courses.deleted'));
        setBlocked(null);
        void list.reload();
        return result;
      }
      showToast('error', t('admin.courses.deleteFailed'));
      if (result.status === 409) setBlocked(course);
      return result;
    },
    { closesOn: (failure) => failure.status === 409 },
  );

  const saved = (mode: Editing['mode'], notified: number) => {
    setEditing(null);
    showToast('success', t(mode === 'create' ? 'admin.courses.created' : 'admin.courses.updated'));
    if (notified > 0) showToast('success', t('admin.courses.buyersNotified', { count: notified }));
    void list.reload();
  };

  return (
    <div className="space-y-4">
      <ListToolbar
        id="course-search"
        searchLabel={t('admin.courses.searchLabel')}
        placeholder={t('admin.courses.searchPlaceholder')}
        search={list.search}
        onSearch={list.setSearch}
        onSubmit={list.submitSearch}
        addLabel={t('admin.courses.add')}
        onAdd={() => setEditing({ mode: 'create' })}
      />

      {blocked && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900"
        >
          <div>
            <p className="font-semibold">{t('admin.errors.dependencies')}</p>
            <p className="mt-1 text-sm">{t('admin.courses.hasPurchases', { title: blocked.title })}</p>
          </div>
          <div className="flex gap-2">
            {blocked.isActive && (
              <button
                type="button"
                onClick={() => void toggle(blocked, false)}
                className="rounded-lg bg-amber-600 px-3 py-2 text-sm font-semibold text-white hover:bg-amber-700"
              >
                {t('admin.courses.deactivateInstead')}
              </button>
            )}
            <button
              type="button"
              onClick={() => setBlocked(null)}
              className="rounded-lg border border-amber-400 px-3 py-2 text-sm font-medium hover:bg-amber-100"
            >
              {t('admin.courses.dismiss')}
            </button>
          </div>
        </div>
      )}

      <p role="status" className="text-sm text-gray-600">
        {list.loading ? t('admin.courses.loading') : t('admin.courses.count', { count: data.total })}
      </p>

      {data.courses.length === 0 && !list.loading ? (
        <p className="rounded-lg border border-dashed border-gray-300 p-8 text-center text-gray-600">
          {query.search ? t('admin.courses.noResults') : t('admin.courses.empty')}
        </p>
      ) : (
        <AdminTable
          caption={t('admin.courses.tableCaption')}
          columns={[
            { label: t('admin.courses.colCourse') },
            { label: t('admin.courses.colCategory') },
            { label: t('admin.courses.colPrice') },
            { label: t('admin.courses.colStatus') },
            { label: t('admin.actions'), end: true },
          ]}
        >
          {data.courses.map((course) => (
            <tr key={course.id}>
              <th scope="row" className="px-4 py-3 font-normal">
                <div className="flex items-center gap-3">
                  <img
                    src={course.coverImageUrl ?? COVER_FALLBACK_URL}
                    alt=""
                    width={64}
                    height={36}
                    loading="lazy"
                    onError={(event) => {
                      if (!event.currentTarget.src.endsWith(COVER_FALLBACK_URL)) event.currentTarget.src = COVER_FALLBACK_URL;
                    }}
                    className="h-9 w-16 shrink-0 rounded object-cover bg-gray-100"
                  />
                  <div className="min-w-0">
                    <p className="font-semibold text-gray-900">{course.title}</p>
                    <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-gray-600">
                      <span>{t(`courseLanguage.${course.language}`)}</span>
                      <span>{t(`difficulty.${course.difficulty}`)}</span>
                      <span>{t('admin.courses.purchases', { count: course.purchaseCount })}</span>
                      {course.kind === 'bundle' && (
                        <span className="font-semibold text-violet-800">
                          {t('admin.courses.bundle')} · {course.bundleCourseIds.length}
                        </span>
                      )}
                      {course.isFeatured && <span className="font-semibold text-brand-700">{t('admin.courses.featured')}</span>}
                      {!course.hasPdf && course.kind === 'course' && (
                        <span className="font-semibold text-red-700">{t('admin.courses.noPdf')}</span>
                      )}
                      {course.updateNotices && <UpdateNotices notices={course.updateNotices} />}
                    </p>
                  </div>
                </div>
              </th>
              <td className="px-4 py-3">{course.categoryName}</td>
              <td className="whitespace-nowrap px-4 py-3">
                {course.priceMinor === 0 ? t('course.free') : formatMoney(course.priceMinor, course.currency, lang)}
              </td>
              <td className="px-4 py-3">
                <button
                  type="button"
                  role="switch"
                  aria-checked={course.isActive}
                  aria-label={t('admin.courses.statusOf', { title: course.title })}
                  disabled={toggling.has(course.id)}
                  onClick={() => void toggle(course)}
                  className="group inline-flex items-center gap-2 rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
                >
                  <span
                    aria-hidden="true"
                    className={`relative inline-block h-6 w-11 rounded-full transition ${course.isActive ? 'bg-emerald-600' : 'bg-gray-300'}`}
                  >
                    <span
                      className={`absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition-all ${course.isActive ? 'left-5.5' : 'left-0.5'}`}
                    />
                  </span>
                  <span className="text-xs font-medium">
                    {course.isActive ? t('admin.courses.active') : t('admin.courses.inactive')}
                  </span>
                </button>
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-right">
                <div className="flex justify-end gap-2">
                  <RowAction label={t('admin.edit')} target={course.title} onClick={() => setEditing({ mode: 'edit', course })} />
                  <RowAction label={t('admin.delete')} target={course.title} onClick={() => remove.ask(course)} danger />
                </div>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}

      <ListPager page={data.page} pageCount={data.pageCount} onPage={list.goToPage} />

      <Dialog
        open={editing !== null}
        title={editing?.mode === 'edit' ? t('admin.courses.editTitle') : t('admin.courses.addTitle')}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <CourseEditor
            lang={lang}
            categories={categories}
            categoriesUrl={categoriesUrl}
            bundleChoices={bundleChoices}
            course={editing.mode === 'edit' ? editing.course : undefined}
            onSaved={(notified) => saved(editing.mode, notified)}
            onCancel={() => setEditing(null)}
          />
        )}
        {editing?.mode === 'edit' && <OfferEditor courseId={editing.course.id} />}
      </Dialog>

      <DeleteDialog
        {...remove.dialog}
        message={remove.target ? t('admin.courses.confirmDelete', { title: remove.target.title }) : ''}
      />
    </div>
  );
}
