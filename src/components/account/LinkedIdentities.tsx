import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { FormFailure } from '../forms/use-form.tsx';
import { postJson } from '../../lib/api-client.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { Language } from '../../i18n/languages.ts';
import { showToast } from '../../stores/toasts.ts';

/** An OpenID identity as the server lists it (functions/account/identities.ts): never its tokens. */
export interface IdentityItem {
  id: string;
  provider: string;
  email: string;
}

interface Props {
  messages: IslandMessages;
  lang: Language;
  identities: IdentityItem[];
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ACCOUNT_ANSWERS,
  'identities.',
  'validation.currentPasswordRequired',
  'validation.fullNameMin',
  'validation.passwordMin',
  'validation.passwordsDontMatch',
  'validation.tooLong',
);

export default function LinkedIdentitiesIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <LinkedIdentities {...props} />
    </I18nIsland>
  );
}

function LinkedIdentities({ identities: initial }: Props) {
  const { t } = useTranslation();
  const [identities, setIdentities] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<MessageKey | null>(null);

  const unlink = async (identity: IdentityItem) => {
    if (busy) return;
    setBusy(identity.id);
    setFailure(null);
    const result = await postJson('/api/auth/unlink-account', { accountId: identity.id });
    setBusy(null);
    if (!result.ok) return setFailure(result.message);
    setIdentities((current) => current.filter((item) => item.id !== identity.id));
    showToast('success', t('identities.unlinked', { provider: identity.provider }));
  };

  if (identities.length === 0) return <p className="text-sm text-gray-600">{t('identities.none')}</p>;
  return (
    <div className="space-y-4">
      <ul className="divide-y divide-gray-200 rounded-lg border border-gray-200">
        {identities.map((identity) => (
          <li key={identity.id} className="flex flex-wrap items-start justify-between gap-3 p-3">
            <div className="min-w-0">
              <p className="font-medium">{identity.provider}</p>
              {identity.email && <p className="text-sm break-all text-gray-600">{identity.email}</p>}
            </div>
            <button
              type="button"
              onClick={() => void unlink(identity)}
              disabled={busy !== null}
              aria-label={t('identities.unlinkProvider', { provider: identity.provider })}
              className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-50 disabled:opacity-60"
            >
              {busy === identity.id ? t('identities.unlinking') : t('identities.unlink')}
            </button>
          </li>
        ))}
      </ul>
      <FormFailure message={failure} />
    </div>
  );
}
