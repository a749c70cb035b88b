import { db } from '../db/database.ts';
import { env } from '../env.ts';
import { identityProviders } from '../auth/identity-providers.ts';

/** An OpenID identity linked to an account, as Settings lists it: never the provider's tokens. */
export interface IdentityView {
  id: string;
  provider: string;
  email: string;
  linkedAt: string;
}

/** The account's OpenID identities (every row but its password), oldest first. */
export async function listIdentities(userId: string): Promise<IdentityView[]> {
  const names = new Map(identityProviders(env()).map((provider) => [provider.id as string, provider.name]));
  const rows = await db()
    .selectFrom('accounts')
    .select(['id', 'provider_id', 'id_token', 'created_at'])
    .where('user_id', '=', userId)
    .where('provider_id', '!=', 'credential')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    provider: names.get(row.provider_id) ?? row.provider_id,
    email: emailIn(row.id_token),
    linkedAt: row.created_at.toISOString(),
  }));
}

/** An OpenID identity of this account, by its row id. */
export async function findIdentity(userId: string, accountId: string): Promise<{ id: string } | undefined> {
  return db()
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', accountId)
    .where('user_id', '=', userId)
    .where('provider_id', '!=', 'credential')
    .executeTakeFirst();
}

/**
 * The address in the identity's last ID token: better-auth checked the token's signature when it
 * stored it at sign-in, so reading its claims here needs no second check.
 */
function emailIn(idToken: string | null): string {
  const payload = idToken?.split('.')[1];
  if (!payload) return '';
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: unknown };
    return typeof claims.email === 'string' ? claims.email : '';
  } catch {
    return '';
  }
}

/**
 * Whether the account keeps a way to sign in without this identity: its password, a passkey or
 * another identity. (An e-mailed sign-in link works for every account, but the rule asks for a way that
 * does not depend on the mailbox alone.)
 */
export async function otherWayToSignIn(userId: string, identityId: string): Promise<boolean> {
  const passkey = await db().selectFrom('passkeys').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (passkey) return true;
  const other = await db()
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '!=', identityId)
    .where((eb) => eb.or([eb('provider_id', '!=', 'credential'), eb('password', 'is not', null)]))
    .executeTakeFirst();
  return Boolean(other);
}
