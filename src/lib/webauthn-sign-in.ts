/**
 * What signing in with a passkey needs of @simplewebauthn/browser, loaded on first use (auth-client.ts).
 * One module per ceremony, so the sign-in page's autofill does not download registration.
 */
export { startAuthentication, WebAuthnAbortService } from '@simplewebauthn/browser';
