import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { AdminTable } from '../AdminTable.tsx';
import { ListPager } from '../ListPager.tsx';
import { ListToolbar } from '../ListToolbar.tsx';
import { useRemoteList } from '../use-remote-list.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/dates.ts';
import {
  SOURCE_LABELS,
  SUBSCRIBER_STATUSES,
  type AdminSubscriberPage,
  type SubscriberStatus,
} from '../../../lib/audience.schema.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  initial: AdminSubscriberPage;
}

const API = '/api/admin/subscribers';

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.subscribers.',
  'audience.source.',
  'catalogue.next',
  'catalogue.pageOf',
  'catalogue.pagination',
  'catalogue.previous',
  'courseLanguage.',
);

export default function SubscribersAdminIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <SubscribersAdmin {...props} />
    </I18nIsland>
  );
}

/** The list's filter as the endpoints read it: `?q=…&status=…`. */
function filterQuery(search: string, status: SubscriberStatus | ''): URLSearchParams {
  const params = new URLSearchParams();
  if (search) params.set('q', search);
  if (status) params.set('status', status);
  return params;
}

function SubscribersAdmin({ lang, initial }: Props) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<SubscriberStatus | ''>('');
  const list = useRemoteList(
    initial,
    ({ search, page }) => {
      const params = filterQuery(search, status);
      params.set('page', String(page));
      return requestJson<AdminSubscriberPage>('GET', `${API}?${params.toString()}`);
    },
    () => showToast('error', t('admin.subscribers.loadFailed')),
  );
  const { data } = list;
  const exportQuery = filterQuery(list.query.search, status).toString();
  const date = (iso: string | null) => (iso ? formatDate(iso, lang) : '—');

  return (
    <div className="space-y-6">
      <ListToolbar
        id="subscriber-search"
        searchLabel={t('admin.subscribers.search')}
        placeholder={t('admin.subscribers.searchPlaceholder')}
        search={list.search}
        onSearch={list.setSearch}
        onSubmit={list.submitSearch}
      />
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="subscriber-status" className="block text-sm font-semibold">
            {t('admin.subscribers.status')}
          </label>
          <select
            id="subscriber-status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as SubscriberStatus | '');
              list.goToPage(1);
            }}
            className="mt-1 rounded-lg border border-gray-300 px-3 py-2"
          >
            <option value="">{t('admin.subscribers.all')}</option>
            {SUBSCRIBER_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`admin.subscribers.status.${value}`)} ({data.counts[value]})
              </option>
            ))}
          </select>
        </div>
        <a
          href={`${API}/export${exportQuery ? `?${exportQuery}` : ''}`}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('admin.subscribers.exportCsv')}
        </a>
        <a href={`${API}/iys`} className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50">
          {t('admin.subscribers.exportIys')}
        </a>
      </div>
      <p className="text-sm text-gray-600" aria-live="polite">
        {t('admin.subscribers.total', { count: data.total })}
      </p>
      <AdminTable
        caption={t('admin.subscribers.tableCaption')}
        columns={[
          { label: t('admin.subscribers.email') },
          { label: t('admin.subscribers.status') },
          { label: t('admin.subscribers.languages') },
          { label: t('admin.subscribers.source') },
          { label: t('admin.subscribers.signedUp') },
          { label: t('admin.subscribers.confirmed') },
          { label: t('admin.subscribers.record'), end: true },
        ]}
      >
        {data.subscribers.length === 0 && (
          <tr>
            <td colSpan={7} className="px-4 py-8 text-center text-gray-600">
              {t(list.query.search || status ? 'admin.subscribers.noMatches' : 'admin.subscribers.empty')}
            </td>
          </tr>
        )}
        {data.subscribers.map((subscriber) => (
          <tr key={subscriber.id}>
            <th scope="row" className="px-4 py-3 text-left font-medium break-all">
              {subscriber.email}
            </th>
            <td className="px-4 py-3">{t(`admin.subscribers.status.${subscriber.status}`)}</td>
            <td className="px-4 py-3">{subscriber.languages.map((code) => t(`courseLanguage.${code}`)).join(', ')}</td>
            <td className="px-4 py-3">{t(SOURCE_LABELS[subscriber.source])}</td>
            <td className="px-4 py-3 whitespace-nowrap">{date(subscriber.createdAt)}</td>
            <td className="px-4 py-3 whitespace-nowrap">
              {subscriber.status === 'unsubscribed'
                ? t('admin.subscribers.leftOn', { date: date(subscriber.unsubscribedAt) })
                : date(subscriber.confirmedAt)}
            </td>
            <td className="px-4 py-3 text-right">
              <a href={`${API}/${subscriber.id}/consent`} className="whitespace-nowrap text-brand-700 underline">
                {t('admin.subscribers.consentJson')}
                <span className="sr-only"> {subscriber.email}</span>
              </a>
            </td>
          </tr>
        ))}
      </AdminTable>
      <ListPager page={data.page} pageCount={data.pageCount} onPage={list.goToPage} />
    </div>
  );
}
