import type { Db } from '../db/database.ts';
import { createAuth, type Role } from './auth.ts';
import type { Language } from '../../src/i18n/languages.ts';

export interface NewUser {
  email: string;
  password: string;
  fullName: string;
  role: Role;
  language?: Language;
}

/**
 * Creates the account if it does not exist (password hashed by better-auth), and sets its role.
 * The operator vouches for the address, so it starts verified and no verification mail is sent.
 */
export async function ensureUser(database: Db, user: NewUser): Promise<{ id: string; created: boolean }> {
  const email = user.email.trim().toLowerCase();
  const existing = await database.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  let id = existing?.id;
  if (!id) {
    const context = await createAuth(database).$context;
    const created = await context.internalAdapter.createUser(
      {
        email,
        name: user.fullName,
        emailVerified: true,
        language: user.language ?? 'en',
      },
      { method: 'admin' },
    );
    await context.internalAdapter.linkAccount({
      userId: created.id,
      accountId: created.id,
      providerId: 'credential',
      password: await context.password.hash(user.password),
    });
    id = created.id;
  }
  await database.updateTable('users').set({ role: user.role, updated_at: new Date() }).where('id', '=', id).execute();
  return { id, created: !existing };
}

export const DEMO_USERS: NewUser[] = [
  { email: 'admin@demo.microcourses.example', password: 'demo-admin-2026', fullName: 'Demo Admin', role: 'admin' },
  { email: 'buyer@demo.microcourses.example', password: 'demo-buyer-2026', fullName: 'Demo Buyer', role: 'user', language: 'tr' },
];
