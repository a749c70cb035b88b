import { useState, useSyncExternalStore } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { useBrowserValue } from '../../islands/use-browser-value.ts';
import { isDebugEnabled, setDebugEnabled } from '../../../lib/logger.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  nodeEnv: string;
  version: string;
  email: string;
  role: string;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.people.debug.database',
  'admin.people.debug.dbChecking',
  'admin.people.debug.dbConnected',
  'admin.people.debug.dbDisconnected',
  'admin.people.debug.dbIdle',
  'admin.people.debug.debugLogging',
  'admin.people.debug.environment',
  'admin.people.debug.network',
  'admin.people.debug.offline',
  'admin.people.debug.online',
  'admin.people.debug.testDatabase',
  'admin.people.debug.user',
  'admin.people.debug.version',
  'admin.people.users.email',
  'admin.people.users.role',
  'admin.people.users.roleAdmin',
  'admin.people.users.roleUser',
  'doctor.',
  'twoFactor.requiredForAdmins',
  'twoFactor.secondFactorRequired',
);

export default function DebugPanelIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <DebugPanel {...props} />
    </I18nIsland>
  );
}

type DatabaseState =
  { kind: 'idle' } | { kind: 'checking' } | { kind: 'connected'; latencyMs: number } | { kind: 'disconnected' };

/** The spec's debug panel, for admins: environment, user status, a database test, network state. */
function DebugPanel({ nodeEnv, version, email, role }: Props) {
  const { t } = useTranslation();
  const [database, setDatabase] = useState<DatabaseState>({ kind: 'idle' });
  // Known only in the browser: null while rendered on the server.
  const online = useSyncExternalStore(
    subscribeToNetwork,
    () => navigator.onLine,
    () => null,
  );
  const storedDebugLogging = useBrowserValue(isDebugEnabled, false);
  const [chosenDebugLogging, setDebugLogging] = useState<boolean | null>(null);
  const debugLogging = chosenDebugLogging ?? storedDebugLogging;

  const testDatabase = async () => {
    setDatabase({ kind: 'checking' });
    try {
      const response = await fetch('/api/health', { cache: 'no-store' });
      const health = (await response.json()) as { database?: string; latencyMs?: number };
      setDatabase(
        response.ok && health.database === 'up'
          ? { kind: 'connected', latencyMs: health.latencyMs ?? 0 }
          : { kind: 'disconnected' },
      );
    } catch {
      setDatabase({ kind: 'disconnected' });
    }
  };

  const databaseText = {
    idle: () => t('admin.people.debug.dbIdle'),
    checking: () => t('admin.people.debug.dbChecking'),
    connected: () => t('admin.people.debug.dbConnected', { ms: database.kind === 'connected' ? database.latencyMs : 0 }),
    disconnected: () => t('admin.people.debug.dbDisconnected'),
  }[database.kind]();
  const databaseStyle =
    database.kind === 'connected' ? 'text-emerald-700' : database.kind === 'disconnected' ? 'text-red-700' : 'text-gray-700';

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="rounded-xl border border-gray-200 p-4">
        <h3 className="font-semibold">{t('admin.people.debug.environment')}</h3>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-gray-600">NODE_ENV</dt>
          <dd className="font-mono" data-testid="debug-node-env">
            {nodeEnv}
          </dd>
          <dt className="text-gray-600">{t('admin.people.debug.version')}</dt>
          <dd className="font-mono">{version}</dd>
        </dl>
      </div>
      <div className="rounded-xl border border-gray-200 p-4">
        <h3 className="font-semibold">{t('admin.people.debug.user')}</h3>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-gray-600">{t('admin.people.users.email')}</dt>
          <dd className="break-all">{email}</dd>
          <dt className="text-gray-600">{t('admin.people.users.role')}</dt>
          <dd>{t(role === 'admin' ? 'admin.people.users.roleAdmin' : 'admin.people.users.roleUser')}</dd>
        </dl>
      </div>
      <div className="rounded-xl border border-gray-200 p-4">
        <h3 className="font-semibold">{t('admin.people.debug.database')}</h3>
        <p role="status" className={`mt-2 text-sm font-medium ${databaseStyle}`} data-testid="debug-database">
          {databaseText}
        </p>
        <button
          type="button"
          onClick={() => void testDatabase()}
          disabled={database.kind === 'checking'}
          className="mt-3 rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-50 disabled:opacity-60"
        >
          {t('admin.people.debug.testDatabase')}
        </button>
      </div>
      <div className="rounded-xl border border-gray-200 p-4">
        <h3 className="font-semibold">{t('admin.people.debug.network')}</h3>
        <p
          role="status"
          className={`mt-2 text-sm font-medium ${online === false ? 'text-red-700' : 'text-emerald-700'}`}
          data-testid="debug-network"
        >
          {online === null ? '…' : t(online ? 'admin.people.debug.online' : 'admin.people.debug.offline')}
        </p>
        <label className="mt-3 flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={debugLogging}
            onChange={(event) => {
              setDebugEnabled(event.target.checked);
              setDebugLogging(event.target.checked);
            }}
          />
          {t('admin.people.debug.debugLogging')}
        </label>
      </div>
    </div>
  );
}

function subscribeToNetwork(notify: () => void): () => void {
  addEventListener('online', notify);
  addEventListener('offline', notify);
  return () => {
    removeEventListener('online', notify);
    removeEventListener('offline', notify);
  };
}
