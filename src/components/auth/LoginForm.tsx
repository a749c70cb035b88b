import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { useBrowserValue } from '../islands/use-browser-value.ts';
import { PasswordField, TextField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { requestSignInLink, signIn } from '../../lib/auth-client.ts';
import { cancelPasskeyAutofill, signInWithPasskeyAutofill } from '../../lib/passkey-sign-in.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { FormIslandProps, PostedForm } from '../../lib/posted-form.ts';

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'auth.');

export default function LoginFormIsland({ lang, messages, posted }: FormIslandProps) {
  return (
    <I18nIsland messages={messages}>
      <LoginForm lang={lang} posted={posted} />
    </I18nIsland>
  );
}

function nextPath(lang: Language): string {
  return safeNextPath(new URLSearchParams(location.search).get('next'), localizedPath(lang, '/dashboard'));
}

/**
 * A waiting autofill request is renewed before the server's sign-in challenge expires
 * (CHALLENGE_TTL_S, five minutes, in functions/auth/passkeys.ts).
 */
const AUTOFILL_RENEW_MS = 4 * 60_000;

/** Whether the browser can offer passkeys in a field's autofill (conditional mediation). */
async function passkeyAutofillAvailable(): Promise<boolean> {
  try {
    return (await window.PublicKeyCredential?.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

function LoginForm({ lang, posted }: { lang: Language; posted: PostedForm | undefined }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.LoginSchema), { email: '', password: '' }, { idPrefix: 'login', posted });
  const passkeys = usePasskeyAutofill(lang, form.setFailure);
  // better-auth sends a used or expired sign-in link back here with `?error=`.
  // (An OpenID provider's refusal comes back with `?signin=` too: its own block tells of it.)
  const linkFailed = useBrowserValue(() => {
    const params = new URLSearchParams(location.search);
    return params.has('error') && !params.has('signin');
  }, false);

  const submit = form.handleSubmit(async (data) => {
    passkeys.pause();
    const result = await signIn(data.email, data.password);
    if (!result.ok) {
      passkeys.offer();
      return result;
    }
    // Two-factor on: the password was right; the code comes next, then the same destination.
    if (result.data.twoFactorRedirect) {
      location.assign(`${localizedPath(lang, '/two-factor')}?next=${encodeURIComponent(nextPath(lang))}`);
      return 'navigating';
    }
    showToastOnNextPage('success', t('auth.welcomeBack'));
    location.assign(nextPath(lang));
    return 'navigating';
  });

  return (
    <div className="space-y-8">
      {linkFailed && (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t('auth.linkExpired')}
        </p>
      )}
      {passwordForm()}
      <SignInLinkForm lang={lang} posted={posted} />
    </div>
  );

  function passwordForm() {
    return (
      <Form name={form.name} onSubmit={submit} className="space-y-4">
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete={passkeys.available ? 'username webauthn' : 'email'}
          {...form.bind('email')}
        />
        <PasswordField label={t('auth.password')} autoComplete="current-password" {...form.bind('password')} />
        <p className="text-right text-sm">
          <a href={localizedPath(lang, '/forgot-password')} className="font-medium text-brand-700 underline">
            {t('auth.forgotPassword')}
          </a>
        </p>
        <FormFailure message={form.failure} />
        <SubmitButton busy={form.busy} label={t('auth.loginButton')} busyLabel={t('auth.loggingIn')} wide />
        <p className="text-center text-sm text-gray-600">
          {t('auth.noAccount')}{' '}
          <a href={localizedPath(lang, '/signup')} className="font-medium text-brand-700 underline">
            {t('auth.signupLink')}
          </a>
        </p>
        <a
          href={localizedPath(lang, '/courses')}
          className="block w-full rounded-lg border border-gray-300 px-4 py-2 text-center font-medium hover:bg-gray-50"
        >
          {t('auth.browseAsGuest')}
        </a>
      </Form>
    );
  }
}

/**
 * Passkey autofill: where the browser supports it, the e-mail field offers this site's passkeys, and
 * picking one signs in as "Sign in with a passkey" does (same endpoints, a second factor passed, the
 * same destination). The WebAuthn code is loaded only then. `pause` ends the waiting request while
 * the password form is sent, `offer` starts it again; a cancelled request shows nothing.
 */
function usePasskeyAutofill(lang: Language, fail: (message: MessageKey) => void) {
  const { t } = useTranslation();
  const [available, setAvailable] = useState(false);
  // Each request has a number; only the newest may act on its outcome.
  const current = useRef(0);

  const offer = () => {
    if (!available) return;
    const request = ++current.current;
    const renew = setTimeout(() => {
      if (current.current === request) offer();
    }, AUTOFILL_RENEW_MS);
    void signInWithPasskeyAutofill().then((result) => {
      clearTimeout(renew);
      if (!result || current.current !== request) return;
      // A refused passkey is said once; the button and the password remain (no new request that could
      // be refused again and again).
      if (!result.ok) return fail(result.message);
      if (result.data.signedIn) showToastOnNextPage('success', t('auth.welcomeBack'));
      location.assign(nextPath(lang));
    });
  };
  const pause = () => {
    if (!available) return;
    current.current++;
    void cancelPasskeyAutofill();
  };

  useEffect(() => {
    let mounted = true;
    void passkeyAutofillAvailable().then((yes) => mounted && setAvailable(yes));
    return () => {
      mounted = false;
    };
  }, []);
  // Started once the field is marked `webauthn` (the browser looks for it when the request starts).
  const start = useEffectEvent(offer);
  useEffect(() => {
    if (!available) return;
    start();
    const requests = current;
    return () => {
      requests.current++;
      void cancelPasskeyAutofill();
    };
  }, [available]);

  return { available, offer, pause };
}

/** No password (a guest buyer), or forgot it: one click in an e-mail signs in. */
function SignInLinkForm({ lang, posted }: { lang: Language; posted: PostedForm | undefined }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.SignInLinkSchema), { email: '' }, { idPrefix: 'sign-in-link', posted });
  const [sentTo, setSentTo] = useState<string | null>(
    posted?.form === form.name && posted.done ? (posted.values.email ?? null) : null,
  );

  const submit = form.handleSubmit(async (data) => {
    const result = await requestSignInLink(data.email, nextPath(lang), lang);
    if (result.ok) setSentTo(data.email);
    return result;
  });

  return (
    <section aria-labelledby="sign-in-link-title" className="border-t border-gray-200 pt-6">
      <h2 id="sign-in-link-title" className="font-semibold">
        {t('auth.linkTitle')}
      </h2>
      <p className="mt-1 text-sm text-gray-600">{t('auth.linkIntro')}</p>
      <Form name={form.name} onSubmit={submit} className="mt-4 space-y-4">
        <TextField label={t('auth.linkEmail')} type="email" autoComplete="email" {...form.bind('email')} />
        <FormFailure message={form.failure} />
        {sentTo && (
          <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
            {t('auth.linkSent', { email: sentTo })}
          </p>
        )}
        <SubmitButton busy={form.busy} label={t('auth.linkButton')} busyLabel={t('auth.sending')} tone="secondary" wide />
      </Form>
    </section>
  );
}
