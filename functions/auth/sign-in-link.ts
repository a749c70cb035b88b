import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { claimAccount } from './claim.ts';
import { siteUrl } from '../env.ts';
import { localizedPath, type Language } from '../../src/i18n/languages.ts';

/** A sign-in link works once, for 15 minutes from when it is sent. */
export const SIGN_IN_LINK_TTL_S = 15 * 60;

/** How better-auth's magic-link plugin (storeToken: 'hashed') keeps a token: never the token itself. */
export function storedSignInToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * The link's address: better-auth verifies the token, signs the owner of the address in (marking it
 * verified and dropping any password someone else set on it before), then opens `next`; a used or
 * expired link opens the login page, which offers a new one.
 */
export function signInLinkUrl(token: string, language: Language, next = localizedPath(language, '/dashboard/courses')): string {
  const url = new URL('/api/auth/magic-link/verify', siteUrl());
  url.searchParams.set('token', token);
  url.searchParams.set('callbackURL', next);
  url.searchParams.set('errorCallbackURL', `${localizedPath(language, '/login')}?next=${encodeURIComponent(next)}`);
  return url.toString();
}

/** Mints a one-use sign-in token for an address, in better-auth's own verification table. */
export async function mintSignInToken(database: Db, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await database
    .insertInto('verifications')
    .values({
      identifier: `magic-link:${storedSignInToken(token)}`,
      value: JSON.stringify({ type: 'magic-link', email }),
      expires_at: new Date(Date.now() + SIGN_IN_LINK_TTL_S * 1000),
    })
    .execute();
  return token;
}

/**
 * A sign-in link being opened: a valid one proves its address, so the account is claimed (claim.ts)
 * before better-auth signs its holder in. better-auth's own take-over of an unproven account keeps
 * two-factor and passkeys; the claim leaves it nothing to take.
 */
export async function claimBySignInLink(database: Db, token: string): Promise<void> {
  const link = await database
    .selectFrom('verifications')
    .select('value')
    .where('identifier', '=', `magic-link:${storedSignInToken(token)}`)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  const email = link ? emailIn(link.value) : undefined;
  const user = email ? await database.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst() : undefined;
  if (user) await claimAccount(database, user.id);
}

function emailIn(value: string): string | undefined {
  try {
    const { email } = JSON.parse(value) as { email?: unknown };
    return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
