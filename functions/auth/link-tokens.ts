import { randomBytes } from 'node:crypto';
import { createEmailVerificationToken } from 'better-auth/api';
import type { Db } from '../db/database.ts';
import { mintSignInToken } from './sign-in-link.ts';

/** What an expiring link in a queued mail is for; the mail worker mints its token at sending. */
export type LinkToken =
  | { kind: 'sign_in'; email: string }
  | { kind: 'password_reset'; userId: string }
  /** better-auth's signed claims (the address, and the new one for a change of address). */
  | { kind: 'verify_email'; claims: Record<string, unknown> };

/** Stands for the token in a queued mail's body (the value predates reset and verification links). */
export const LINK_TOKEN_SLOT = 'SIGN-IN-TOKEN-SLOT';

export const RESET_TOKEN_TTL_S = 60 * 60;
export const VERIFY_TOKEN_TTL_S = 24 * 60 * 60;

/** A fresh token for a link, stored where better-auth looks for it; its lifetime starts now. */
export async function mintLinkToken(database: Db, link: LinkToken): Promise<string> {
  switch (link.kind) {
    case 'sign_in':
      return mintSignInToken(database, link.email);
    case 'password_reset': {
      const token = randomBytes(18).toString('base64url');
      await database
        .insertInto('verifications')
        .values({
          identifier: `reset-password:${token}`,
          value: link.userId,
          expires_at: new Date(Date.now() + RESET_TOKEN_TTL_S * 1000),
        })
        .execute();
      return token;
    }
    case 'verify_email': {
      const { email, updateTo, exp: _exp, iat: _iat, ...extra } = link.claims;
      return createEmailVerificationToken(
        process.env.BETTER_AUTH_SECRET ?? '',
        String(email),
        typeof updateTo === 'string' ? updateTo : undefined,
        VERIFY_TOKEN_TTL_S,
        extra,
      );
    }
  }
}

/** The claims inside a token better-auth signed (read, not trusted: they are signed again at sending). */
export function claimsOf(token: string): Record<string, unknown> {
  const [, payload = ''] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
