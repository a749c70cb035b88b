import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '../env.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * Signatures for links the shop hands out (file downloads, unsubscribe): an HMAC with a key of its
 * own per purpose, derived from the app secret, so one kind of link can never stand for another.
 */
export function sign(purpose: string, message: string): string {
  return createHmac('sha256', keyFor(purpose)).update(message).digest('base64url');
}

export function isSigned(purpose: string, message: string, signature: string): boolean {
  const expected = Buffer.from(sign(purpose, message));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function keyFor(purpose: string): Buffer {
  const secret = env().BETTER_AUTH_SECRET;
  if (!secret) throw new Error('BETTER_AUTH_SECRET is not set');
  return createHash('sha256').update(`${purpose}:${secret}`).digest();
}

const TOKEN_SIGNATURE = /^[\w-]{20,100}$/;

/** `<id>.<signature>`: a link's token naming one row (an account, a subscriber) for one purpose, with nothing to guess. */
export function signedIdToken(purpose: string, id: string): string {
  return `${id}.${sign(purpose, id)}`;
}

/** The id a token of `signedIdToken` was signed for; undefined for a malformed or tampered one. */
export function idOfSignedToken(purpose: string, token: string): string | undefined {
  const [id, signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !isUuid(id) || !TOKEN_SIGNATURE.test(signature)) return undefined;
  return isSigned(purpose, id, signature) ? id : undefined;
}
