import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '../env.ts';

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
