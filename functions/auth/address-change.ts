import { revokeOtherSessions } from '../account/sessions.ts';
import { sendSecurityNotice } from '../account/security-notices.ts';
import { db } from '../db/database.ts';
import { auth } from './auth.ts';
import { sessionTokenIn } from './cookies.ts';
import { claimsOf } from './link-tokens.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * The confirmation link of a change of address, through better-auth: once the address has changed,
 * every session but the one that opened the link ends, and the old address is told.
 */
export async function confirmAddressChange(forwarded: Request): Promise<Response> {
  const userId = changeOfAddressAccount(new URL(forwarded.url).searchParams.get('token') ?? '');
  const emailOf = async () =>
    userId ? (await db().selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email : undefined;
  const before = await emailOf();
  const response = await auth().handler(forwarded);
  const after = await emailOf();
  if (userId && before && after && before !== after) {
    const opener =
      sessionTokenIn(response.headers.getSetCookie()) ?? sessionTokenIn((forwarded.headers.get('cookie') ?? '').split(';'));
    await revokeOtherSessions(userId, opener);
    await sendSecurityNotice(db(), userId, 'email-changed', {
      userAgent: forwarded.headers.get('user-agent'),
      to: before,
      newEmail: after,
    });
  }
  return response;
}

/** The account a change-of-address confirmation token names (read only; better-auth checks its signature). */
function changeOfAddressAccount(token: string): string | undefined {
  try {
    const claims = claimsOf(token);
    return claims.requestType === 'change-email-verification' && isUuid(claims.userId) ? claims.userId : undefined;
  } catch {
    return undefined;
  }
}
