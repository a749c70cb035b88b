import { z } from 'zod';
import { isSigned, sign } from '../auth/signing.ts';

/**
 * Instant access: the browser that made a checkout may download its course from the success page,
 * whether or not anyone is signed in. It holds a short-lived signed cookie naming its recent
 * checkouts; an order id or payment reference alone never opens a file.
 */
export const CHECKOUT_ACCESS_COOKIE = 'checkout_access';
export const CHECKOUT_ACCESS_TTL_S = 60 * 60;
const PURPOSE = 'checkout-access';
const MAX_REMEMBERED = 5;

const GrantSchema = z.object({ ids: z.array(z.string().max(300)).max(MAX_REMEMBERED), exp: z.number() });
type Grant = z.infer<typeof GrantSchema>;

function read(cookie: string | undefined): Grant | undefined {
  const [payload, signature] = (cookie ?? '').split('.');
  if (!payload || !signature || !isSigned(PURPOSE, payload, signature)) return undefined;
  try {
    const grant = GrantSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return grant.exp > Date.now() ? grant : undefined;
  } catch {
    return undefined;
  }
}

/** The cookie's new value: this checkout added to the browser's recent ones, valid for another hour. */
export function grantCheckoutAccess(cookie: string | undefined, paymentId: string): string {
  const ids = [paymentId, ...(read(cookie)?.ids ?? []).filter((id) => id !== paymentId)].slice(0, MAX_REMEMBERED);
  const payload = Buffer.from(JSON.stringify({ ids, exp: Date.now() + CHECKOUT_ACCESS_TTL_S * 1000 })).toString('base64url');
  return `${payload}.${sign(PURPOSE, payload)}`;
}

export function hasCheckoutAccess(cookie: string | undefined, paymentId: string): boolean {
  return read(cookie)?.ids.includes(paymentId) ?? false;
}
