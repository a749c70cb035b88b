import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { useBrowserValue } from '../islands/use-browser-value.ts';
import { FormFailure } from '../forms/use-form.tsx';
import { signInWithPasskey } from '../../lib/passkey-sign-in.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';

interface Props {
  messages: IslandMessages;
  lang: Language;
  /**
   * `sign-in`: the login page's "Sign in with a passkey". `second-factor`: the two-factor page's
   * alternative to a code, for a password sign-in waiting on it or a session begun without one
   * (an e-mailed link, OpenID) finishing its sign-in.
   */
  purpose: 'sign-in' | 'second-factor';
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ACCOUNT_ANSWERS,
  'auth.welcomeBack',
  'passkeys.',
  'reset.invalidTitle',
  'twoFactor.usePasskey',
  'validation.currentPasswordRequired',
  'validation.emailInvalid',
  'validation.fullNameMin',
  'validation.passwordMin',
  'validation.passwordsDontMatch',
  'validation.tooLong',
);

export default function PasskeySignInIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <PasskeySignIn {...props} />
    </I18nIsland>
  );
}

/** One button: the browser asks for a passkey of this site, the server opens (or proves) the session. */
function PasskeySignIn({ lang, purpose }: Props) {
  const { t } = useTranslation();
  const supported = useBrowserValue(() => typeof window.PublicKeyCredential === 'function', true);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<MessageKey | null>(null);
  if (!supported) return null;

  const start = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    const result = await signInWithPasskey();
    if (!result.ok) {
      setBusy(false);
      setFailure(result.message);
      return;
    }
    const fallback = localizedPath(lang, '/dashboard');
    // A new session or one that has just finished signing in: either way a sign-in.
    showToastOnNextPage('success', t('auth.welcomeBack'));
    location.assign(safeNextPath(new URLSearchParams(location.search).get('next'), fallback));
  };

  return (
    <section aria-labelledby={`passkey-${purpose}-title`} className="space-y-3 border-t border-gray-200 pt-6">
      <h2 id={`passkey-${purpose}-title`} className={purpose === 'sign-in' ? 'font-semibold' : 'sr-only'}>
        {purpose === 'sign-in' ? t('passkeys.signIn') : t('twoFactor.usePasskey')}
      </h2>
      <p className="text-sm text-gray-600">{t('passkeys.signInIntro')}</p>
      <FormFailure message={failure} />
      <button
        type="button"
        onClick={() => void start()}
        disabled={busy}
        className="w-full rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {busy ? t('passkeys.signingIn') : purpose === 'sign-in' ? t('passkeys.signIn') : t('twoFactor.usePasskey')}
      </button>
    </section>
  );
}
