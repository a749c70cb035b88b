import type { Db } from '../db/database.ts';
import { createAuth, type Role } from './auth.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { claimAccount, type Claimed } from './claim.ts';

export interface NewUser {
  email: string;
  password: string;
  fullName: string;
  role: Role;
  language?: Language;
}

/**
 * What ensureUser did, for the operator to read:
 * - `created`: a new account, its address counted as proven (the operator vouches for it);
 * - `claimed`: an account that had never proved its address (someone's sign-up, a guest checkout) is
 *   taken over as a proof of the address would (claim.ts): what it lost is listed, the given password set;
 * - `promoted`: an account whose owner proved the address got the role; its password is theirs and stays;
 * - `unchanged`: a proven account that already had the role;
 * - `refused`: a proven account asked for another role without `promoteVerified`: nothing changed.
 */
export type EnsuredUser =
  | { outcome: 'created' | 'promoted' | 'unchanged' | 'refused'; id: string }
  | { outcome: 'claimed'; id: string; claimed: Claimed };

/**
 * The operator's account for an address, with the given role. The command is the operator's proof of
 * the address: an account that never proved it is claimed, never merely promoted (a stranger who signed
 * up with the owner's address first would otherwise keep their password and get the role). An account
 * its owner proved is promoted only when the operator says so (`promoteVerified`).
 */
export async function ensureUser(
  database: Db,
  user: NewUser,
  { promoteVerified = false }: { promoteVerified?: boolean } = {},
): Promise<EnsuredUser> {
  const email = user.email.trim().toLowerCase();
  const existing = await database
    .selectFrom('users')
    .select(['id', 'role', 'email_verified'])
    .where('email', '=', email)
    .executeTakeFirst();
  const context = await createAuth(database).$context;
  const setPassword = async (userId: string) =>
    context.internalAdapter.linkAccount({
      userId,
      accountId: userId,
      providerId: 'credential',
      password: await context.password.hash(user.password),
    });
  if (!existing) {
    const created = await context.internalAdapter.createUser(
      { email, name: user.fullName, emailVerified: true, language: user.language ?? 'en' },
      { method: 'admin' },
    );
    await setPassword(created.id);
    await setRole(database, created.id, user.role);
    return { outcome: 'created', id: created.id };
  }
  const claimed = await claimAccount(database, existing.id);
  if (claimed) {
    await setPassword(existing.id);
    await database.updateTable('users').set({ full_name: user.fullName }).where('id', '=', existing.id).execute();
    await setRole(database, existing.id, user.role);
    return { outcome: 'claimed', id: existing.id, claimed };
  }
  if (existing.role === user.role) return { outcome: 'unchanged', id: existing.id };
  if (!promoteVerified) return { outcome: 'refused', id: existing.id };
  await setRole(database, existing.id, user.role);
  return { outcome: 'promoted', id: existing.id };
}

async function setRole(database: Db, userId: string, role: Role): Promise<void> {
  await database.updateTable('users').set({ role, updated_at: new Date() }).where('id', '=', userId).execute();
}

export const DEMO_USERS: NewUser[] = [
  { email: 'admin@demo.microcourses.example', password: 'demo-admin-2026', fullName: 'Demo Admin', role: 'admin' },
  { email: 'buyer@demo.microcourses.example', password: 'demo-buyer-2026', fullName: 'Demo Buyer', role: 'user', language: 'tr' },
];
