import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { FormFailure } from '../../forms/use-form.tsx';
import { postJson } from '../../../lib/api-client.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';

interface Props {
  messages: IslandMessages;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.health.mailResend',
  'admin.health.mailResending',
  'admin.health.mailResent',
);

export default function ResendMailIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <ResendMail />
    </I18nIsland>
  );
}

/** "Send now": refused mail leaves at the worker's next round instead of at its next hourly try. */
function ResendMail() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [resent, setResent] = useState<number | null>(null);

  const resend = async () => {
    setBusy(true);
    setFailure(null);
    const result = await postJson<{ resent: number }>('/api/admin/mail/resend', {});
    setBusy(false);
    if (result.ok) setResent(result.data.resent);
    else setFailure(result.message);
  };

  return (
    <div className="mt-2 flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={() => void resend()}
        disabled={busy}
        className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {busy ? t('admin.health.mailResending') : t('admin.health.mailResend')}
      </button>
      <p role="status">{resent !== null && t('admin.health.mailResent', { count: resent })}</p>
      <FormFailure message={failure} />
    </div>
  );
}
