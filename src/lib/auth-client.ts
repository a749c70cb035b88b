import type { MessageKey } from '../i18n/i18n.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { postJson, type ApiResult } from './api-client.ts';
import type { FieldErrors } from './field-errors.ts';

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

export async function authCall<T>(path: string, body: unknown, fallback: MessageKey): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, message: 'errors.network', fields: {}, status: 0 };
  }
  return authAnswer<T>(response, fallback);
}

/**
 * An account endpoint's answer as an island sees it; the pages that take a form posted without
 * JavaScript read it the same way (src/server/auth-form.ts).
 */
export async function authAnswer<T>(response: Response, fallback: MessageKey): Promise<ApiResult<T>> {
  const payload = (await response.json().catch(() => ({}))) as {
    code?: string;
    error?: { message?: MessageKey; fields?: FieldErrors };
  } & T;
  if (response.ok) return { ok: true, data: payload };
  // Our own refusals (validation, limits) carry a translation key; better-auth's carry a code.
  const message =
    payload.error?.message ??
    (response.status === 429
      ? 'errors.tooManyRequests'
      : (CODE_MESSAGES[payload.code ?? ''] ?? (response.status >= 500 ? 'errors.server' : fallback)));
  return { ok: false, message, fields: payload.error?.fields ?? {}, status: response.status };
}

/** A password sign-in; an account with two-factor answers `twoFactorRedirect` and waits for its code. */
export const signIn = (email: string, password: string) =>
  authCall<{ twoFactorRedirect?: boolean }>('/api/auth/sign-in/email', { email, password }, 'auth.loginError');

/** Two-factor: set up (an authenticator secret and ten backup codes), confirm with a code, turn off. */
export const enableTwoFactor = (password: string | undefined) =>
  authCall<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { password }, 'twoFactor.enableFailed');
export const verifyTotp = (code: string) => authCall('/api/auth/two-factor/verify-totp', { code }, 'twoFactor.codeWrong');
export const verifyBackupCode = (code: string) =>
  authCall('/api/auth/two-factor/verify-backup-code', { code }, 'twoFactor.backupCodeWrong');
export const newBackupCodes = (password: string | undefined) =>
  authCall<{ backupCodes: string[] }>('/api/auth/two-factor/generate-backup-codes', { password }, 'twoFactor.enableFailed');
export const disableTwoFactor = (password: string | undefined) =>
  authCall('/api/auth/two-factor/disable', { password }, 'twoFactor.disableFailed');

export const signUp = (fullName: string, email: string, password: string, language: Language) =>
  authCall('/api/auth/sign-up/email', signUpRequest(fullName, email, password, language), 'auth.signupError');

/** The sign-up request's body (the sign-up page sends the same for a form posted without JavaScript). */
export const signUpRequest = (fullName: string, email: string, password: string, language: Language) =>
  // The verification mail's link opens My Courses, where verified purchases appear.
  ({ name: fullName, email, password, language, callbackURL: localizedPath(language, '/dashboard/courses') });

/** Whether this browser is signed in now (sign-up answers the same for a taken address, without a session). */
export async function isSignedIn(): Promise<boolean> {
  const response = await fetch('/api/session', { credentials: 'same-origin' }).catch(() => undefined);
  const session = (await response?.json().catch(() => undefined)) as { user?: unknown } | undefined;
  return Boolean(session?.user);
}

/** A one-use sign-in link by e-mail; it opens `next`, or the login page again when it has expired. */
export const requestSignInLink = (email: string, next: string, language: Language) =>
  authCall('/api/auth/sign-in/magic-link', signInLinkRequest(email, next, language), 'auth.linkFailed');

/** The sign-in link request's body (the login page sends the same for a form posted without JavaScript). */
export const signInLinkRequest = (email: string, next: string, language: Language) => ({
  email: email.trim().toLowerCase(),
  callbackURL: next,
  errorCallbackURL: `${localizedPath(language, '/login')}?next=${encodeURIComponent(next)}`,
});

export const requestPasswordReset = (email: string) =>
  authCall('/api/auth/request-password-reset', { email }, 'auth.resetEmailFailed');

export const resetPassword = (token: string, password: string, confirmPassword: string) =>
  postJson<{ ok: true; twoFactor: boolean }>('/api/password-reset', { token, password, confirmPassword });

export const updateProfile = (fullName: string, language: Language) =>
  authCall('/api/auth/update-user', profileRequest(fullName, language), 'settings.profileFailed');

/** The bodies of Settings' requests (the page sends the same for a form posted without JavaScript). */
export const profileRequest = (fullName: string, language: Language) => ({ name: fullName, language });
export const passwordChangeRequest = (currentPassword: string, newPassword: string) => ({
  currentPassword,
  newPassword,
  revokeOtherSessions: true,
});

export const changePassword = (currentPassword: string, newPassword: string) =>
  authCall('/api/auth/change-password', passwordChangeRequest(currentPassword, newPassword), 'settings.passwordFailed');

/** For an account that signs in by e-mail link only: its first password (the session proves who it is). */
export const setPassword = (newPassword: string) => postJson<{ ok: true }>('/api/account/password', { newPassword });

export const changeEmailRequest = (newEmail: string, callbackURL: string) => ({
  newEmail: newEmail.trim().toLowerCase(),
  callbackURL,
});
export const changeEmail = (newEmail: string, callbackURL: string) =>
  authCall('/api/auth/change-email', changeEmailRequest(newEmail, callbackURL), 'settings.emailFailed');

export const signOut = () => authCall('/api/auth/sign-out', {}, 'errors.generic');
