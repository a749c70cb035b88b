import { useEffect, useMemo, useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { ConfirmDialog, Dialog } from '../Dialog.tsx';
import { useConfirm } from '../use-confirm.ts';
import { FormFailure } from '../../forms/use-form.tsx';
import { requestJson } from '../../../lib/api-client.ts';
import { LOG_LEVELS, type LogEntry, type LogLevel } from '../../../lib/admin/log-limits.ts';
import { clearLogs, getLogs, logger, subscribeToLogs } from '../../../lib/logger.ts';
import { showToast } from '../../../stores/toasts.ts';
import { LOCALE_OF, type Language } from '../../../i18n/languages.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.people.logs.browserCleared',
  'admin.people.logs.clearBrowser',
  'admin.people.logs.clearBrowserMessage',
  'admin.people.logs.clearBrowserTitle',
  'admin.people.logs.clearConfirm',
  'admin.people.logs.clearFailed',
  'admin.people.logs.clearServer',
  'admin.people.logs.clearServerMessage',
  'admin.people.logs.clearServerTitle',
  'admin.people.logs.clearing',
  'admin.people.logs.count',
  'admin.people.logs.details',
  'admin.people.logs.empty',
  'admin.people.logs.export',
  'admin.people.logs.level',
  'admin.people.logs.levels.',
  'admin.people.logs.loadFailed',
  'admin.people.logs.loading',
  'admin.people.logs.open',
  'admin.people.logs.refresh',
  'admin.people.logs.search',
  'admin.people.logs.serverCleared',
  'admin.people.logs.sources.',
  'admin.people.logs.title',
  'twoFactor.requiredForAdmins',
  'twoFactor.secondFactorRequired',
);

export default function LogsViewerIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <LogsViewer {...props} />
    </I18nIsland>
  );
}

type Source = 'server' | 'browser';
type SourcedEntry = LogEntry & { source: Source };
type Pending = 'browser' | 'server' | null;

const LEVEL_STYLE: Record<LogLevel, string> = {
  error: 'bg-red-50 text-red-800',
  warn: 'bg-amber-50 text-amber-800',
  info: 'bg-sky-50 text-sky-800',
  debug: 'bg-gray-100 text-gray-700',
};

/**
 * The application-log viewer: errors browsers reported to the server, merged with this browser's
 * own log, newest first; filter by level and text, export as JSON, clear (each source separately).
 */
function LogsViewer({ lang }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [serverLogs, setServerLogs] = useState<LogEntry[]>([]);
  const [browserLogs, setBrowserLogs] = useState<readonly LogEntry[]>([]);
  const [loading, setLoading] = useState(false);
  const [loadFailure, setLoadFailure] = useState<MessageKey | null>(null);
  const [level, setLevel] = useState<LogLevel | 'all'>('all');
  const [search, setSearch] = useState('');

  const load = async () => {
    setLoading(true);
    setLoadFailure(null);
    const result = await requestJson<{ logs: LogEntry[] }>('GET', '/api/admin/logs');
    setLoading(false);
    if (result.ok) setServerLogs(result.data.logs);
    else {
      logger.warn('Server logs could not be loaded', { status: result.status, message: result.message });
      setLoadFailure('admin.people.logs.loadFailed');
      showToast('error', t('admin.people.logs.loadFailed'));
    }
  };

  const openViewer = () => {
    setOpen(true);
    setBrowserLogs([...getLogs()]);
    void load();
  };

  // While the viewer is open, this browser's new entries appear as they are logged.
  useEffect(() => (open ? subscribeToLogs((entries) => setBrowserLogs([...entries])) : undefined), [open]);

  const entries = useMemo(() => {
    const merged: SourcedEntry[] = [
      ...serverLogs.map((entry) => ({ ...entry, source: 'server' as const })),
      ...browserLogs.map((entry) => ({ ...entry, source: 'browser' as const })),
    ];
    const needle = search.trim().toLocaleLowerCase(LOCALE_OF[lang]);
    return merged
      .filter((entry) => level === 'all' || entry.level === level)
      .filter(
        (entry) =>
          !needle ||
          [entry.message, entry.url ?? '', entry.stack ?? '', entry.data === undefined ? '' : JSON.stringify(entry.data)].some(
            (text) => text.toLocaleLowerCase(LOCALE_OF[lang]).includes(needle),
          ),
      )
      .sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  }, [serverLogs, browserLogs, level, search, lang]);

  const exportJson = () => {
    const blob = new Blob([JSON.stringify(entries, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `application-logs-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const clear = useConfirm<Exclude<Pending, null>>(async (source) => {
    if (source === 'browser') {
      clearLogs();
      showToast('success', t('admin.people.logs.browserCleared'));
      return { ok: true, data: undefined };
    }
    const result = await requestJson<{ deleted: number }>('DELETE', '/api/admin/logs');
    if (!result.ok) {
      logger.warn('Server logs could not be cleared', { status: result.status, message: result.message });
      showToast('error', t('admin.people.logs.clearFailed'));
      return result;
    }
    setServerLogs([]);
    showToast('success', t('admin.people.logs.serverCleared'));
    return result;
  });
  const pending = clear.target;

  const formatTime = (iso: string) =>
    new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));

  return (
    <>
      <button
        type="button"
        onClick={openViewer}
        className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
      >
        {t('admin.people.logs.open')}
      </button>
      <Dialog open={open} title={t('admin.people.logs.title')} onClose={() => setOpen(false)}>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="logs-level" className="block text-sm font-semibold">
              {t('admin.people.logs.level')}
            </label>
            <select
              id="logs-level"
              value={level}
              onChange={(event) => setLevel(event.target.value as LogLevel | 'all')}
              className="mt-1 rounded-lg border border-gray-300 bg-white px-3 py-2"
            >
              <option value="all">{t('admin.people.logs.levels.all')}</option>
              {LOG_LEVELS.map((code) => (
                <option key={code} value={code}>
                  {t(`admin.people.logs.levels.${code}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-48 flex-1">
            <label htmlFor="logs-search" className="block text-sm font-semibold">
              {t('admin.people.logs.search')}
            </label>
            <input
              id="logs-search"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2"
            />
          </div>
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => void load()}
            disabled={loading}
            className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-50 disabled:opacity-60"
          >
            {t('admin.people.logs.refresh')}
          </button>
          <button
            type="button"
            onClick={exportJson}
            className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-50"
          >
            {t('admin.people.logs.export')}
          </button>
          <button
            type="button"
            onClick={() => clear.ask('browser')}
            className="rounded-lg border border-red-300 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
          >
            {t('admin.people.logs.clearBrowser')}
          </button>
          <button
            type="button"
            onClick={() => clear.ask('server')}
            className="rounded-lg border border-red-300 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
          >
            {t('admin.people.logs.clearServer')}
          </button>
        </div>
        <div className="mt-3">
          <FormFailure message={loadFailure} />
        </div>
        <p role="status" className="mt-3 text-sm text-gray-600">
          {loading ? t('admin.people.logs.loading') : t('admin.people.logs.count', { count: entries.length })}
        </p>
        {entries.length === 0 && !loading ? (
          <p className="mt-3 text-gray-600">{t('admin.people.logs.empty')}</p>
        ) : (
          <ol className="mt-3 space-y-2" aria-label={t('admin.people.logs.title')}>
            {entries.map((entry, index) => (
              <li key={`${entry.source}-${entry.timestamp}-${index}`} className="rounded-lg border border-gray-200 p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className={`rounded px-1.5 py-0.5 text-xs font-semibold uppercase ${LEVEL_STYLE[entry.level]}`}>
                    {t(`admin.people.logs.levels.${entry.level}`)}
                  </span>
                  <span className="text-xs text-gray-600">{t(`admin.people.logs.sources.${entry.source}`)}</span>
                  <time dateTime={entry.timestamp} className="text-xs text-gray-600">
                    {formatTime(entry.timestamp)}
                  </time>
                </div>
                <p className="mt-1 break-words font-medium">{entry.message}</p>
                {entry.url && <p className="mt-1 break-all text-xs text-gray-600">{entry.url}</p>}
                {(entry.stack || entry.data !== undefined) && (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs font-medium text-brand-700">
                      {t('admin.people.logs.details')}
                    </summary>
                    {entry.data !== undefined && (
                      <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-all rounded bg-gray-50 p-2 text-xs">
                        {JSON.stringify(entry.data, null, 2)}
                      </pre>
                    )}
                    {entry.stack && (
                      <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-all rounded bg-gray-50 p-2 text-xs">
                        {entry.stack}
                      </pre>
                    )}
                    {entry.userAgent && <p className="mt-1 break-all text-xs text-gray-600">{entry.userAgent}</p>}
                  </details>
                )}
              </li>
            ))}
          </ol>
        )}
        <ConfirmDialog
          {...clear.dialog}
          title={t(pending === 'server' ? 'admin.people.logs.clearServerTitle' : 'admin.people.logs.clearBrowserTitle')}
          message={t(pending === 'server' ? 'admin.people.logs.clearServerMessage' : 'admin.people.logs.clearBrowserMessage')}
          confirmLabel={t('admin.people.logs.clearConfirm')}
          busyLabel={t('admin.people.logs.clearing')}
        />
      </Dialog>
    </>
  );
}
