import type { MessageKey } from '../i18n/i18n.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { postJson, type ApiFailure, type ApiResult } from './api-client.ts';

/** Calls to the account endpoints from islands; better-auth's error codes become translation keys. */
const CODE_MESSAGES: Record<string, MessageKey> = {
  INVALID_EMAIL_OR_PASSWORD: 'auth.invalidCredentials',
  USER_ALREADY_EXISTS: 'auth.userExists',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'auth.userExists',
  PASSWORD_TOO_SHORT: 'validation.passwordMin',
  INVALID_PASSWORD: 'settings.wrongCurrentPassword',
  INVALID_EMAIL: 'validation.emailInvalid',
  INVALID_CODE: 'twoFactor.codeWrong',
  INVALID_BACKUP_CODE: 'twoFactor.backupCodeWrong',
  INVALID_TWO_FACTOR_COOKIE: 'twoFactor.challengeExpired',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'twoFactor.challengeExpired',
  ACCOUNT_TEMPORARILY_LOCKED: 'twoFactor.locked',
  TOTP_NOT_ENABLED: 'twoFactor.notEnabled',
  PASSKEY_REFUSED: 'passkeys.signInFailed',
  PASSKEY_OTHER_ACCOUNT: 'passkeys.otherAccount',
};

async function call<T>(path: string, body: unknown, fallback: MessageKey): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, message: 'errors.network', fields: {}, status: 0 };
  }
  const payload = (await response.json().catch(() => ({}))) as { code?: string; error?: { message?: MessageKey } } & T;
  if (response.ok) return { ok: true, data: payload };
  // Our own refusals (validation, limits) carry a translation key; better-auth's carry a code.
  const message =
    payload.error?.message ??
    (response.status === 429
      ? 'errors.tooManyRequests'
      : (CODE_MESSAGES[payload.code ?? ''] ?? (response.status >= 500 ? 'errors.server' : fallback)));
  return { ok: false, message, fields: {}, status: response.status };
}

/** A password sign-in; an account with two-factor answers `twoFactorRedirect` and waits for its code. */
export const signIn = (email: string, password: string) =>
  call<{ twoFactorRedirect?: boolean }>('/api/auth/sign-in/email', { email, password }, 'auth.loginError');

/** Two-factor: set up (an authenticator secret and ten backup codes), confirm with a code, turn off. */
export const enableTwoFactor = (password: string | undefined) =>
  call<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { password }, 'twoFactor.enableFailed');
export const verifyTotp = (code: string) => call('/api/auth/two-factor/verify-totp', { code }, 'twoFactor.codeWrong');
export const verifyBackupCode = (code: string) =>
  call('/api/auth/two-factor/verify-backup-code', { code }, 'twoFactor.backupCodeWrong');
export const newBackupCodes = (password: string | undefined) =>
  call<{ backupCodes: string[] }>('/api/auth/two-factor/generate-backup-codes', { password }, 'twoFactor.enableFailed');
export const disableTwoFactor = (password: string | undefined) =>
  call('/api/auth/two-factor/disable', { password }, 'twoFactor.disableFailed');

export const signUp = (fullName: string, email: string, password: string, language: Language) =>
  call(
    '/api/auth/sign-up/email',
    // The verification mail's link opens My Courses, where verified purchases appear.
    { name: fullName, email, password, language, callbackURL: localizedPath(language, '/dashboard/courses') },
    'auth.signupError',
  );

/** A one-use sign-in link by e-mail; it opens `next`, or the login page again when it has expired. */
export const requestSignInLink = (email: string, next: string, language: Language) =>
  call(
    '/api/auth/sign-in/magic-link',
    {
      email: email.trim().toLowerCase(),
      callbackURL: next,
      errorCallbackURL: `${localizedPath(language, '/login')}?next=${encodeURIComponent(next)}`,
    },
    'auth.linkFailed',
  );

export const requestPasswordReset = (email: string) =>
  call('/api/auth/request-password-reset', { email }, 'auth.resetEmailFailed');

export const resetPassword = (token: string, password: string, confirmPassword: string) =>
  postJson<{ ok: true; twoFactor: boolean }>('/api/password-reset', { token, password, confirmPassword });

export const updateProfile = (fullName: string, language: Language) =>
  call('/api/auth/update-user', { name: fullName, language }, 'settings.profileFailed');

export const changePassword = (currentPassword: string, newPassword: string) =>
  call('/api/auth/change-password', { currentPassword, newPassword, revokeOtherSessions: true }, 'settings.passwordFailed');

/** For an account that signs in by e-mail link only: its first password (the session proves who it is). */
export const setPassword = (newPassword: string) => postJson<{ ok: true }>('/api/account/password', { newPassword });

export const changeEmail = (newEmail: string, callbackURL: string) =>
  call('/api/auth/change-email', { newEmail: newEmail.trim().toLowerCase(), callbackURL }, 'settings.emailFailed');

export const signOut = () => call('/api/auth/sign-out', {}, 'errors.generic');

/** A ceremony the browser or the person stopped: cancelled, timed out, or an authenticator already known. */
function ceremonyFailure(error: unknown, fallback: MessageKey): ApiFailure {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  const message: MessageKey =
    code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'
      ? 'passkeys.alreadyAdded'
      : name === 'NotAllowedError' || name === 'AbortError'
        ? 'passkeys.cancelled'
        : fallback;
  return { ok: false, message, fields: {}, status: 0 };
}

/**
 * "Sign in with a passkey" (login page) or the passkey instead of a code (two-factor page): the
 * server's challenge, the authenticator's answer, and a session that passed a second factor.
 */
export async function signInWithPasskey(): Promise<ApiResult<{ ok: true; signedIn: boolean }>> {
  const options = await call<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/passkey/sign-in-options',
    {},
    'passkeys.signInFailed',
  );
  if (!options.ok) return options;
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options.data.options });
  } catch (error) {
    return ceremonyFailure(error, 'passkeys.signInFailed');
  }
  return call('/api/auth/passkey/sign-in', { challengeId: options.data.challengeId, response }, 'passkeys.signInFailed');
}

/** Settings' "Add a passkey": the password again (when the account has one), the ceremony, the name. */
export async function addPasskey(name: string, password: string | undefined): Promise<ApiResult<{ passkey: PasskeyItem }>> {
  const options = await postJson<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/account/passkeys/options',
    { password },
  );
  if (!options.ok) return options;
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response;
  try {
    response = await startRegistration({ optionsJSON: options.data.options });
  } catch (error) {
    return ceremonyFailure(error, 'passkeys.addFailed');
  }
  return postJson('/api/account/passkeys', { challengeId: options.data.challengeId, name, response });
}

/** A passkey as Settings lists it (functions/auth/passkeys.ts): never its key. */
export interface PasskeyItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}
