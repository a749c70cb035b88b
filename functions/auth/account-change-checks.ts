import { hasPassword, sessionIsFresh } from '../account/account.ts';
import { findIdentity, otherWayToSignIn } from '../account/identities.ts';
import { hasVerifiedEmail } from './passkeys.ts';
import { NOT_FOUND, type AuthRefusal } from './refusals.ts';
import { getSessionUser } from './session.ts';

/** Changes to the account that ask its owner to prove it is them again (password, or a fresh sign-in). */
const REAUTHENTICATED = new Set(['/two-factor/enable', '/two-factor/disable', '/two-factor/generate-backup-codes']);

/**
 * What a change to the signed-in account must show before better-auth makes it: two-factor only for
 * a proven address, a recent proof of identity for two-factor changes, and an OpenID identity
 * unlinked only while another way to sign in remains.
 */
export async function accountChangeRefusal(
  path: string,
  requestHeaders: Headers,
  fields: Record<string, unknown>,
): Promise<AuthRefusal | undefined> {
  if (path === '/two-factor/enable') {
    const refused = await unprovenAddressRefusal(requestHeaders);
    if (refused) return refused;
  }
  if (REAUTHENTICATED.has(path)) {
    const refused = await reauthenticationRefusal(requestHeaders);
    if (refused) return refused;
  }
  if (path === '/unlink-account') return unlinkRefusal(requestHeaders, String(fields.accountId));
  return undefined;
}

/**
 * Only an OpenID identity of the signed-in account is unlinked here (never its password), and only
 * while another way to sign in remains: better-auth refuses the last one.
 */
async function unlinkRefusal(requestHeaders: Headers, accountId: string): Promise<AuthRefusal | undefined> {
  const user = await getSessionUser(requestHeaders);
  if (!user) return undefined;
  const identity = await findIdentity(user.id, accountId);
  if (!identity) return NOT_FOUND;
  if (!(await otherWayToSignIn(user.id, identity.id)))
    return { status: 409, code: 'last_way_to_sign_in', message: 'identities.lastWay' };
  return undefined;
}

/**
 * Two-factor, as a passkey, only for an account that proved its address: an authenticator set up by
 * whoever opened the account with someone else's address would outlive the owner claiming it.
 */
async function unprovenAddressRefusal(requestHeaders: Headers): Promise<AuthRefusal | undefined> {
  const user = await getSessionUser(requestHeaders);
  if (!user || (await hasVerifiedEmail(user.id))) return undefined;
  return { status: 403, code: 'unverified_email', message: 'twoFactor.verifyFirst' };
}

/** An account without a password proves itself by a sign-in of the last minutes (a fresh e-mailed link). */
async function reauthenticationRefusal(requestHeaders: Headers): Promise<AuthRefusal | undefined> {
  const user = await getSessionUser(requestHeaders);
  if (!user || (await hasPassword(user.id)) || (await sessionIsFresh(user.id, requestHeaders))) return undefined;
  return { status: 403, code: 'sign_in_again', message: 'twoFactor.signInAgain' };
}
