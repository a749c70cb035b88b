import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { Dialog } from '../Dialog.tsx';
import { AdminTable, RowAction } from '../AdminTable.tsx';
import { ListPager } from '../ListPager.tsx';
import { ListToolbar } from '../ListToolbar.tsx';
import { useRemoteList } from '../use-remote-list.ts';
import { Switch, TextAreaField } from '../../forms/fields.tsx';
import { Form, FormActions, useForm } from '../../forms/use-form.tsx';
import { requestJson } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/dates.ts';
import { starRow } from '../../../lib/ratings.ts';
import { REVIEW_BODY_MAX, ReviewChangeSchema, type AdminReview, type AdminReviewPage } from '../../../lib/reviews.schema.ts';
import { courseUrl } from '../../../lib/course-links.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  initial: AdminReviewPage;
}

const API = '/api/admin/reviews';

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.actions',
  'admin.reviews.',
  'admin.saving',
  'catalogue.next',
  'catalogue.pageOf',
  'catalogue.pagination',
  'catalogue.previous',
  'reviews.bodyTooLong',
  'reviews.ratingRequired',
  'reviews.stars',
);

export default function ReviewsAdminIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <ReviewsAdmin {...props} />
    </I18nIsland>
  );
}

function ReviewsAdmin({ lang, initial }: Props) {
  const { t } = useTranslation();
  const list = useRemoteList(
    initial,
    ({ search, page }) => {
      const params = new URLSearchParams({ page: String(page) });
      if (search) params.set('q', search);
      return requestJson<AdminReviewPage>('GET', `${API}?${params.toString()}`);
    },
    () => showToast('error', t('admin.reviews.loadFailed')),
  );
  const { data } = list;
  const [toggling, setToggling] = useState<string | null>(null);
  const [replying, setReplying] = useState<AdminReview | null>(null);

  const change = (id: string, update: Partial<AdminReview>) =>
    list.setData((current) => ({
      ...current,
      reviews: current.reviews.map((review) => (review.id === id ? { ...review, ...update } : review)),
    }));

  const toggleHidden = async (review: AdminReview) => {
    setToggling(review.id);
    const result = await requestJson<{ hidden: boolean }>('PATCH', `${API}/${review.id}`, { hidden: !review.hidden });
    setToggling(null);
    if (!result.ok) return showToast('error', t('admin.reviews.saveFailed'));
    change(review.id, { hidden: result.data.hidden });
    showToast('success', t(result.data.hidden ? 'admin.reviews.hiddenToast' : 'admin.reviews.shownToast'));
  };

  return (
    <div className="space-y-6">
      <ListToolbar
        id="review-search"
        searchLabel={t('admin.reviews.search')}
        placeholder={t('admin.reviews.searchPlaceholder')}
        search={list.search}
        onSearch={list.setSearch}
        onSubmit={list.submitSearch}
      />
      <p className="text-sm text-gray-600" aria-live="polite">
        {t('admin.reviews.total', { count: data.total })}
      </p>
      <AdminTable
        caption={t('admin.reviews.tableCaption')}
        columns={[
          { label: t('admin.reviews.columnReview') },
          { label: t('admin.reviews.columnCourse') },
          { label: t('admin.reviews.columnAuthor') },
          { label: t('admin.reviews.columnVisible') },
          { label: t('admin.actions'), end: true },
        ]}
      >
        {data.reviews.length === 0 && (
          <tr>
            <td colSpan={5} className="px-4 py-8 text-center text-gray-600">
              {t(list.query.search ? 'admin.reviews.noMatches' : 'admin.reviews.empty')}
            </td>
          </tr>
        )}
        {data.reviews.map((review) => (
          <tr key={review.id} className="align-top">
            <th scope="row" className="max-w-md px-4 py-3 text-left font-normal">
              <span className="block">
                <span aria-hidden="true" className="text-amber-600">
                  {starRow(review.rating)}
                </span>
                <span className="sr-only">{t('reviews.stars', { count: review.rating })}</span>{' '}
                <time dateTime={review.createdAt} className="text-xs text-gray-600">
                  {formatDate(review.createdAt, lang)}
                </time>
              </span>
              {review.body ? (
                <span className="mt-1 block whitespace-pre-line break-words text-gray-900">{review.body}</span>
              ) : (
                <span className="mt-1 block text-gray-500 italic">{t('admin.reviews.noText')}</span>
              )}
              {review.reply && (
                <span className="mt-2 block border-l-4 border-brand-200 pl-3 text-gray-700">
                  <span className="font-semibold">{t('admin.reviews.yourReply')}</span> {review.reply}
                </span>
              )}
            </th>
            <td className="px-4 py-3">
              <a href={courseUrl(lang, review.courseId)} className="text-brand-700 underline">
                {review.courseTitle}
              </a>
            </td>
            <td className="px-4 py-3">
              <span className="block">{review.authorName || '—'}</span>
              <span className="block break-all text-xs text-gray-600">{review.authorEmail}</span>
            </td>
            <td className="px-4 py-3">
              <Switch
                checked={!review.hidden}
                busy={toggling === review.id}
                onChange={() => void toggleHidden(review)}
                label={t('admin.reviews.visibleSwitch', { author: review.authorName || review.authorEmail })}
                stateText={t(review.hidden ? 'admin.reviews.hidden' : 'admin.reviews.shown')}
              />
              {!review.purchaseActive && (
                <span className="mt-1 block text-xs font-semibold text-amber-800">{t('admin.reviews.refunded')}</span>
              )}
            </td>
            <td className="px-4 py-3 text-right">
              <RowAction
                label={t(review.reply ? 'admin.reviews.editReply' : 'admin.reviews.reply')}
                target={t('admin.reviews.toAuthor', { author: review.authorName || review.authorEmail })}
                onClick={() => setReplying(review)}
              />
            </td>
          </tr>
        ))}
      </AdminTable>
      <ListPager page={data.page} pageCount={data.pageCount} onPage={list.goToPage} />

      <Dialog open={replying !== null} title={t('admin.reviews.replyTitle')} onClose={() => setReplying(null)}>
        {replying && (
          <ReplyEditor
            key={replying.id}
            review={replying}
            onSaved={(reply) => {
              change(replying.id, { reply });
              setReplying(null);
              showToast('success', t(reply ? 'admin.reviews.replySaved' : 'admin.reviews.replyRemoved'));
            }}
            onCancel={() => setReplying(null)}
          />
        )}
      </Dialog>
    </div>
  );
}

function ReplyEditor({
  review,
  onSaved,
  onCancel,
}: {
  review: AdminReview;
  onSaved: (reply: string | null) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm(ReviewChangeSchema, { reply: review.reply ?? '' }, { idPrefix: 'review-reply' });
  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson<{ reply: string | null }>('PATCH', `${API}/${review.id}`, { reply: data.reply ?? '' });
    if (result.ok) onSaved(result.data.reply);
    return result;
  });
  return (
    <Form onSubmit={submit} className="space-y-4">
      <blockquote className="rounded-lg bg-gray-50 p-3 text-sm whitespace-pre-line break-words text-gray-800">
        <span aria-hidden="true" className="text-amber-600">
          {starRow(review.rating)}
        </span>
        <span className="sr-only">{t('reviews.stars', { count: review.rating })}</span> {review.body}
      </blockquote>
      <TextAreaField
        label={t('admin.reviews.replyLabel')}
        hint={t('admin.reviews.replyHint')}
        rows={5}
        maxLength={REVIEW_BODY_MAX}
        {...form.bind('reply')}
      />
      <FormActions
        failure={form.failure}
        busy={form.busy}
        label={t('admin.reviews.saveReply')}
        busyLabel={t('admin.saving')}
        cancelLabel={t('admin.cancel')}
        onCancel={onCancel}
      />
    </Form>
  );
}
