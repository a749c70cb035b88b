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

/** Creates the account if it does not exist (password hashed by better-auth), and sets its role. */
export async function ensureUser(database: Db, user: NewUser): Promise<{ id: string; created: boolean }> {
  const email = user.email.trim().toLowerCase();
  const existing = await database.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  let id = existing?.id;
  if (!id) {
    const created = await createAuth(database).api.signUpEmail({
      body: { email, password: user.password, name: user.fullName, language: user.language ?? 'en' },
    });
    id = created.user.id;
  }
  await database.updateTable('users').set({ role: user.role, updated_at: new Date() }).where('id', '=', id).execute();
  return { id, created: !existing };
}

export const DEMO_USERS: NewUser[] = [
  { email: 'admin@demo.microcourses.example', password: 'demo-admin-2026', fullName: 'Demo Admin', role: 'admin' },
  { email: 'buyer@demo.microcourses.example', password: 'demo-buyer-2026', fullName: 'Demo Buyer', role: 'user', language: 'tr' },
];
