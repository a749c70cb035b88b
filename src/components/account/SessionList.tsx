import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { useBrowserValue } from '../islands/use-browser-value.ts';
import { Form, FormFailure, instead } from '../forms/use-form.tsx';
import { postJson, requestJson } from '../../lib/api-client.ts';
import { LOCALE_OF, localizedPath, type Language } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import { showToast, showToastOnNextPage } from '../../stores/toasts.ts';
import type { PostedForm } from '../../lib/posted-form.ts';

/** A signed-in device as the server lists it (functions/account/sessions.ts): never a token. */
export interface SessionItem {
  id: string;
  browser: string;
  os: string;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
}

interface Props {
  lang: Language;
  messages: IslandMessages;
  sessions: SessionItem[];
  /** The form as the page answered it, posted before this island hydrated. */
  posted?: PostedForm | undefined;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'sessions.');

export default function SessionListIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <SessionList {...props} />
    </I18nIsland>
  );
}

/**
 * The devices signed in, each with its "Sign out", then the others' and everyone's: one form whose
 * buttons say which (`session`, `intent`), so it works before the script does (the page takes the post).
 */
function SessionList({ lang, sessions: initial, posted }: Props) {
  const { t } = useTranslation();
  const [sessions, setSessions] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<MessageKey | null>(posted?.form === 'sessions' ? posted.failure : null);
  const others = sessions.filter((session) => !session.current);

  const run = async (key: string, action: () => Promise<{ ok: boolean; message?: MessageKey }>, done: () => void) => {
    if (busy) return;
    setBusy(key);
    setFailure(null);
    const result = await action();
    setBusy(null);
    if (result.ok) done();
    else setFailure(result.message ?? 'errors.generic');
  };

  const signOutOne = (session: SessionItem) =>
    run(
      session.id,
      () => requestJson('DELETE', `/api/account/sessions/${session.id}`),
      () => {
        setSessions((current) => current.filter((item) => item.id !== session.id));
        showToast('success', t('sessions.signedOutOne'));
      },
    );
  const signOutOthers = () =>
    run(
      'others',
      () => postJson('/api/auth/revoke-other-sessions', {}),
      () => {
        setSessions((current) => current.filter((item) => item.current));
        showToast('success', t('sessions.signedOutOthers'));
      },
    );
  const signOutEverywhere = () =>
    run(
      'all',
      () => postJson('/api/auth/revoke-sessions', {}),
      () => {
        sessionStorage.removeItem('account');
        showToastOnNextPage('success', t('sessions.signedOutEverywhere'));
        location.assign(localizedPath(lang, '/login'));
      },
    );

  return (
    <Form name="sessions" className="space-y-4">
      <ul className="divide-y divide-gray-200 rounded-lg border border-gray-200">
        {sessions.map((session) => {
          const browser = session.browser || t('sessions.unknownBrowser');
          const device = session.os ? t('sessions.deviceOn', { browser, os: session.os }) : browser;
          return (
            <li key={session.id} className="flex flex-wrap items-start justify-between gap-3 p-3">
              <div className="min-w-0">
                <p className="font-medium">
                  {device}
                  {session.current && (
                    <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
                      {t('sessions.thisDevice')}
                    </span>
                  )}
                </p>
                <p className="text-sm text-gray-600">
                  {t('sessions.signedIn')} <Moment iso={session.createdAt} lang={lang} />
                </p>
                <p className="text-sm text-gray-600">
                  {t('sessions.lastActive')} <Moment iso={session.lastActiveAt} lang={lang} />
                </p>
              </div>
              {!session.current && (
                <button
                  type="submit"
                  name="session"
                  value={session.id}
                  onClick={instead(() => signOutOne(session))}
                  disabled={busy !== null}
                  aria-label={t('sessions.signOutDevice', { device })}
                  className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-50 disabled:opacity-60"
                >
                  {busy === session.id ? t('sessions.signingOut') : t('sessions.signOut')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <FormFailure message={failure} />
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          name="intent"
          value="others"
          onClick={instead(signOutOthers)}
          disabled={busy !== null || others.length === 0}
          className="rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {busy === 'others' ? t('sessions.signingOut') : t('sessions.signOutOthers')}
        </button>
        <button
          type="submit"
          name="intent"
          value="all"
          onClick={instead(signOutEverywhere)}
          disabled={busy !== null}
          className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          {busy === 'all' ? t('sessions.signingOut') : t('sessions.signOutEverywhere')}
        </button>
      </div>
    </Form>
  );
}

/** A moment in the reader's time zone once hydrated (UTC while the server renders, so hydration matches). */
export function Moment({ iso, lang }: { iso: string; lang: Language }) {
  const format = (timeZone?: string) =>
    new Intl.DateTimeFormat(LOCALE_OF[lang], {
      dateStyle: 'medium',
      timeStyle: 'short',
      ...(timeZone ? { timeZone } : {}),
    }).format(new Date(iso));
  const text = useBrowserValue(() => format(), `${format('UTC')} UTC`);
  return <time dateTime={iso}>{text}</time>;
}
