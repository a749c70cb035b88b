/** What adding a passkey needs of @simplewebauthn/browser, loaded on first use (auth-client.ts). */
export { startRegistration } from '@simplewebauthn/browser';
