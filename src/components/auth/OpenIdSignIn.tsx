import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { useBrowserValue } from '../islands/use-browser-value.ts';
import { FormFailure } from '../forms/use-form.tsx';
import { postJson } from '../../lib/api-client.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';

/** A configured OpenID provider as the login page may know it: an id and a name, never its keys. */
export interface ProviderButton {
  id: string;
  name: string;
}

interface Props {
  messages: IslandMessages;
  lang: Language;
  providers: ProviderButton[];
}

/** Where better-auth sends a sign-in the provider or the linking rules refused: `?signin=<provider>&error=<code>`. */
const REFUSALS: Record<string, MessageKey> = {
  account_not_linked: 'openId.notLinked',
  email_not_found: 'openId.noEmail',
  email_not_verified: 'openId.notLinked',
  access_denied: 'openId.cancelled',
};

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ACCOUNT_ANSWERS,
  'identities.',
  'openId.cancelled',
  'openId.continueWith',
  'openId.failed',
  'openId.noEmail',
  'openId.notLinked',
  'openId.redirecting',
  'openId.title',
  'openId.unavailable',
  'validation.currentPasswordRequired',
  'validation.fullNameMin',
  'validation.passwordMin',
  'validation.passwordsDontMatch',
  'validation.tooLong',
);

export default function OpenIdSignInIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <OpenIdSignIn {...props} />
    </I18nIsland>
  );
}

function OpenIdSignIn({ lang, providers }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<MessageKey | null>(null);
  // Read as strings: the browser value must be the same between two reads while nothing changed.
  const refusedBy = useBrowserValue(() => new URLSearchParams(location.search).get('signin'), null);
  const error = useBrowserValue(() => new URLSearchParams(location.search).get('error'), null);
  const provider = providers.find((candidate) => candidate.id === refusedBy);
  const refusal = provider && error ? { provider: provider.name, message: REFUSALS[error] ?? 'openId.failed' } : null;

  const signIn = async (provider: ProviderButton) => {
    if (busy) return;
    setBusy(provider.id);
    setFailure(null);
    const params = new URLSearchParams(location.search);
    const next = safeNextPath(params.get('next'), localizedPath(lang, '/dashboard'));
    const back = new URLSearchParams({ signin: provider.id });
    if (params.get('next')) back.set('next', next);
    const result = await postJson<{ url?: string }>('/api/auth/sign-in/social', {
      provider: provider.id,
      callbackURL: next,
      newUserCallbackURL: next,
      errorCallbackURL: `${localizedPath(lang, '/login')}?${back.toString()}`,
      disableRedirect: true,
      additionalData: { language: lang },
    });
    if (result.ok && result.data.url) {
      location.assign(result.data.url);
      return;
    }
    setBusy(null);
    // 404: the provider could not be reached when the shop asked it for its addresses.
    setFailure(result.ok || result.status === 404 ? 'openId.unavailable' : result.message);
  };

  return (
    <section aria-labelledby="open-id-title" className="border-b border-gray-200 pb-6">
      <h2 id="open-id-title" className="sr-only">
        {t('openId.title')}
      </h2>
      {refusal && (
        <p role="alert" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t(refusal.message, { provider: refusal.provider })}
        </p>
      )}
      <div className="space-y-3">
        {providers.map((provider) => (
          <button
            key={provider.id}
            type="button"
            onClick={() => void signIn(provider)}
            disabled={busy !== null}
            className="block w-full rounded-lg border border-gray-300 px-4 py-2 text-center font-semibold hover:bg-gray-50 disabled:opacity-60"
          >
            {busy === provider.id ? t('openId.redirecting') : t('openId.continueWith', { provider: provider.name })}
          </button>
        ))}
      </div>
      <div className="mt-3">
        <FormFailure message={failure} />
      </div>
    </section>
  );
}
