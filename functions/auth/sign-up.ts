import { db } from '../db/database.ts';
import { sendSecurityNotice } from '../account/security-notices.ts';
import { auth } from './auth.ts';

/** What sign-up answers, whether or not the address had an account. */
export const SIGN_UP_ANSWER = { status: 'check_email' } as const;

/** better-auth's refusal of an address that has an account. */
const DUPLICATE_CODES = new Set(['USER_ALREADY_EXISTS', 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL']);

/**
 * A sign-up that does not tell whether the address has an account. better-auth answers a taken
 * address with its own generic reply only without auto sign-in; the shop keeps signing a new account
 * in, so it shapes both answers itself: the same status and body, after the same work (the password
 * hashed, one mail queued: the new account's verification, or a word to the address's owner).
 * Only the new account's browser gets a session cookie.
 */
export async function signUpWithoutTelling(forwarded: Request, email: string, password: string): Promise<Response> {
  const response = await auth().handler(forwarded);
  if (response.status === 200) return answer(response.headers);
  if (!(await isDuplicate(response))) return response;
  await (await auth().$context).password.hash(password);
  const owner = await db().selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (owner) await sendSecurityNotice(db(), owner.id, 'sign-up-attempt', { userAgent: forwarded.headers.get('user-agent') });
  return answer(new Headers());
}

async function isDuplicate(response: Response): Promise<boolean> {
  if (response.status !== 422) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { code?: unknown };
  return typeof body.code === 'string' && DUPLICATE_CODES.has(body.code);
}

/** The one answer, keeping better-auth's cookies for a new account. */
function answer(from: Headers): Response {
  const headers = new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
  for (const cookie of from.getSetCookie()) headers.append('set-cookie', cookie);
  return new Response(JSON.stringify(SIGN_UP_ANSWER), { status: 200, headers });
}
