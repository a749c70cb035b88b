import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { ApiFailure, ApiResult } from './api-client.ts';
import { authCall } from './auth-client.ts';

/**
 * Signing in with a passkey: the button (login and two-factor pages) and autofill (login page).
 * Kept out of auth-client.ts, which every page loads for its header, so only these pages carry it;
 * the WebAuthn code itself is loaded when a ceremony starts. (Adding a passkey is Settings' own:
 * PasskeySettings.tsx.)
 */

/** A ceremony the browser or the person stopped (cancelled, timed out), or another failure. */
function ceremonyFailure(error: unknown): ApiFailure {
  const { name } = (error ?? {}) as { name?: string };
  const message = name === 'NotAllowedError' || name === 'AbortError' ? 'passkeys.cancelled' : 'passkeys.signInFailed';
  return { ok: false, message, fields: {}, status: 0 };
}

type PasskeySignedIn = { ok: true; signedIn: boolean };

/** A passkey sign-in's two steps: the server's challenge, then the authenticator's answer to it. */
const passkeyChallenge = () =>
  authCall<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/passkey/sign-in-options',
    {},
    'passkeys.signInFailed',
  );
const passkeyAnswer = (challengeId: string, response: AuthenticationResponseJSON) =>
  authCall<PasskeySignedIn>('/api/auth/passkey/sign-in', { challengeId, response }, 'passkeys.signInFailed');

/**
 * "Sign in with a passkey" (login page) or the passkey instead of a code (two-factor page): the
 * server's challenge, the authenticator's answer, and a session that passed a second factor.
 */
export async function signInWithPasskey(): Promise<ApiResult<PasskeySignedIn>> {
  const options = await passkeyChallenge();
  if (!options.ok) return options;
  const { startAuthentication } = await import('./webauthn-sign-in.ts');
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options.data.options });
  } catch (error) {
    return ceremonyFailure(error);
  }
  return passkeyAnswer(options.data.challengeId, response);
}

/** The autofill request waiting now, if any (the passkey button's own request is not one). */
let waiting: Promise<unknown> | undefined;

export async function signInWithPasskeyAutofill(): Promise<ApiResult<PasskeySignedIn> | undefined> {
  const options = await passkeyChallenge();
  if (!options.ok) return undefined;
  const { startAuthentication } = await import('./webauthn-sign-in.ts');
  const request = startAuthentication({ optionsJSON: options.data.options, useBrowserAutofill: true });
  waiting = request;
  let response;
  try {
    response = await request;
  } catch {
    return undefined;
  } finally {
    if (waiting === request) waiting = undefined;
  }
  return passkeyAnswer(options.data.challengeId, response);
}

/**
 * Ends the waiting autofill request (the password form is being sent); its promise gives `undefined`.
 * A passkey request of the button, which replaced it, is left alone.
 */
export async function cancelPasskeyAutofill(): Promise<void> {
  if (!waiting) return;
  const { WebAuthnAbortService } = await import('./webauthn-sign-in.ts');
  WebAuthnAbortService.cancelCeremony();
}
