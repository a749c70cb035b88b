import { sql } from 'kysely';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { PASSKEY_ALGORITHMS } from '../../src/lib/auth.schema.ts';
import { db } from '../db/database.ts';
import { siteUrl } from '../env.ts';
import { log } from '../log.ts';

/**
 * Passkeys (WebAuthn) over better-auth's sessions, with @simplewebauthn/server (decision 0021).
 * The relying party is the site itself (PUBLIC_SITE_URL's host and origin). Every ceremony's
 * challenge is kept by the server, used once and for a few minutes; every passkey must verify its
 * user (a PIN, a fingerprint), so a passkey sign-in counts as a second factor; an authenticator's
 * signature counter that goes backwards is refused.
 */

/** How long a ceremony may take, from the options to the answer. */
export const CHALLENGE_TTL_S = 5 * 60;

const TRANSPORTS = new Set<AuthenticatorTransport>(['ble', 'hybrid', 'internal', 'nfc', 'usb']);

/** A passkey as Settings lists it: never its key or credential id. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function relyingParty(): { id: string; origin: string; name: string } {
  const site = new URL(siteUrl());
  return { id: site.hostname, origin: site.origin, name: 'MicroCourses' };
}

export async function listPasskeys(userId: string): Promise<PasskeyView[]> {
  const rows = await db()
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  }));
}

/** Whether the account proved its address: only such an account may add a passkey. */
export async function hasVerifiedEmail(userId: string): Promise<boolean> {
  const row = await db().selectFrom('users').select('email_verified').where('id', '=', userId).executeTakeFirst();
  return row?.email_verified === true;
}

/** The options for adding a passkey to a signed-in account, and the id of the challenge they carry. */
export async function registrationOptions(
  user: { id: string; email: string; fullName: string | null },
  sessionId: string,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const rp = relyingParty();
  const existing = await db()
    .selectFrom('passkeys')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', user.id)
    .execute();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new TextEncoder().encode(user.id),
    userName: user.email,
    userDisplayName: user.fullName || user.email,
    timeout: CHALLENGE_TTL_S * 1000,
    attestationType: 'none',
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS.map((algorithm) => algorithm.id),
    // One passkey per authenticator; a discoverable one, so the login page needs no address.
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: knownTransports(row.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const challengeId = await keepChallenge('register', options.challenge, user.id, sessionId);
  return { challengeId, options };
}

export type RegisterOutcome = { ok: true; passkey: PasskeyView } | { ok: false; reason: 'challenge' | 'invalid' | 'duplicate' };

/** Checks the authenticator's answer to a registration challenge of this session and keeps the passkey. */
export async function registerPasskey(
  userId: string,
  sessionId: string,
  input: { challengeId: string; name: string; response: RegistrationResponseJSON },
): Promise<RegisterOutcome> {
  const challenge = await takeChallenge(input.challengeId, 'register');
  if (!challenge || challenge.user_id !== userId || challenge.session_id !== sessionId) return { ok: false, reason: 'challenge' };
  const rp = relyingParty();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    log.info({ err: error }, 'passkey registration refused');
    return { ok: false, reason: 'invalid' };
  }
  if (!verification.verified) return { ok: false, reason: 'invalid' };
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const row = await db()
    .insertInto('passkeys')
    .values({
      user_id: userId,
      name: input.name,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: knownTransports(input.response.response.transports ?? []),
      device_type: credentialDeviceType,
      backed_up: credentialBackedUp,
    })
    .onConflict((conflict) => conflict.column('credential_id').doNothing())
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'duplicate' };
  return { ok: true, passkey: { id: row.id, name: row.name, createdAt: row.created_at.toISOString(), lastUsedAt: null } };
}

export async function renamePasskey(userId: string, id: string, name: string): Promise<boolean> {
  const result = await db()
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function removePasskey(userId: string, id: string): Promise<boolean> {
  const result = await db().deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The options for signing in with a passkey: no account named, the authenticator offers its own. */
export async function authenticationOptions(): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const rp = relyingParty();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CHALLENGE_TTL_S * 1000,
    userVerification: 'required',
  });
  const challengeId = await keepChallenge('authenticate', options.challenge, null, null);
  return { challengeId, options };
}

/**
 * Checks an answer to a sign-in challenge: the passkey's signature over this site's challenge, its
 * user verified, its counter moving forward. The account it belongs to, or nothing.
 */
export async function verifyPasskeySignIn(input: {
  challengeId: string;
  response: AuthenticationResponseJSON;
}): Promise<{ userId: string } | undefined> {
  const challenge = await takeChallenge(input.challengeId, 'authenticate');
  if (!challenge) return undefined;
  const passkey = await db()
    .selectFrom('passkeys')
    .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('credential_id', '=', input.response.id)
    .executeTakeFirst();
  if (!passkey) return undefined;
  const userHandle = input.response.response.userHandle;
  if (userHandle !== undefined && Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.user_id) return undefined;
  const rp = relyingParty();
  const counter = Number(passkey.counter);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter,
        transports: knownTransports(passkey.transports),
      },
    });
  } catch (error) {
    log.info({ err: error }, 'passkey sign-in refused');
    return undefined;
  }
  if (!verification.verified) return undefined;
  // The counter moves only forward: a racing twin of this answer, or a cloned authenticator, loses.
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const used = await db()
    .updateTable('passkeys')
    .set({ counter: newCounter, backed_up: credentialBackedUp, last_used_at: new Date() })
    .where('id', '=', passkey.id)
    .where('counter', '=', String(counter))
    .executeTakeFirst();
  if (used.numUpdatedRows === 0n) return undefined;
  return { userId: passkey.user_id };
}

async function keepChallenge(
  purpose: 'register' | 'authenticate',
  challenge: string,
  userId: string | null,
  sessionId: string | null,
): Promise<string> {
  await db().deleteFrom('webauthn_challenges').where('expires_at', '<', new Date()).execute();
  const row = await db()
    .insertInto('webauthn_challenges')
    .values({
      purpose,
      challenge,
      user_id: userId,
      session_id: sessionId,
      expires_at: sql<Date>`now() + ${`${CHALLENGE_TTL_S} seconds`}::interval`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A challenge, removed as it is read: whatever the answer, it is never checked twice. */
async function takeChallenge(id: string, purpose: 'register' | 'authenticate') {
  const row = await db()
    .deleteFrom('webauthn_challenges')
    .where('id', '=', id)
    .returning(['purpose', 'challenge', 'user_id', 'session_id', 'expires_at'])
    .executeTakeFirst();
  return row && row.purpose === purpose && row.expires_at > new Date() ? row : undefined;
}

function knownTransports(transports: readonly string[]): AuthenticatorTransport[] {
  return transports.filter((transport): transport is AuthenticatorTransport =>
    TRANSPORTS.has(transport as AuthenticatorTransport),
  );
}
