import { auth, type Role } from './auth.ts';
import { db } from '../db/database.ts';
import { asLanguage, type Language } from '../../src/i18n/languages.ts';

export interface SessionUser {
  id: string;
  email: string;
  fullName: string;
  language: Language;
  role: Role;
}

/** The signed-in user for a request's cookies, or undefined. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | undefined> {
  const session = await auth()
    .api.getSession({ headers })
    .catch(() => null);
  if (!session) return undefined;
  const user = session.user as typeof session.user & { language?: string; role?: string };
  return {
    id: user.id,
    email: user.email,
    fullName: user.name,
    language: asLanguage(user.language),
    role: user.role === 'admin' ? 'admin' : 'user',
  };
}

/** Failed sign-ins per account, whatever address they come from. */
export const MAX_SIGN_IN_FAILURES = 10;
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

export async function isAccountLocked(email: string): Promise<boolean> {
  const row = await db()
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<number>().as('failures'))
    .where('email', '=', email.trim().toLowerCase())
    .where('created_at', '>', new Date(Date.now() - SIGN_IN_FAILURE_WINDOW_MS))
    .executeTakeFirstOrThrow();
  return Number(row.failures) >= MAX_SIGN_IN_FAILURES;
}

export async function recordSignInResult(email: string, succeeded: boolean): Promise<void> {
  const key = email.trim().toLowerCase();
  if (succeeded) await db().deleteFrom('sign_in_failures').where('email', '=', key).execute();
  else await db().insertInto('sign_in_failures').values({ email: key }).execute();
}
