import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { auth } from '../auth/auth.ts';
import { listOrders } from '../orders/library.ts';
import { deleteStampedCopies } from '../downloads/stamped-copies.ts';
import { sessionTokenIn } from '../auth/cookies.ts';
import { revokeOtherSessions } from './sessions.ts';
import { sendSecurityNotice } from './security-notices.ts';
import { conflict, ok, type Result } from '../../src/lib/result.ts';
import { subscriptionOfAddress } from '../audience/record.ts';

/** A session this young proves its holder just signed in (a link-only account has no password to re-enter). */
export const FRESH_SESSION_MS = 15 * 60 * 1000;

export async function hasPassword(userId: string): Promise<boolean> {
  const row = await db()
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('provider_id', '=', 'credential')
    .where('password', 'is not', null)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * An account that signs in by e-mail link gets its first password (every other session ends, as on
 * any change of password); one that has a password changes it instead.
 */
export async function setFirstPassword(userId: string, newPassword: string, headers: Headers): Promise<Result<{ set: true }>> {
  if (await hasPassword(userId)) return conflict('has_password', 'settings.hasPassword');
  await auth().api.setPassword({ body: { newPassword }, headers });
  await revokeOtherSessions(userId, sessionTokenIn((headers.get('cookie') ?? '').split(';')));
  await sendSecurityNotice(db(), userId, 'password-changed', { userAgent: headers.get('user-agent') });
  return ok({ set: true });
}

/** Everything the shop keeps about a person, as they can take it away (the privacy page's promise). */
export async function exportAccountData(userId: string) {
  const user = await db()
    .selectFrom('users')
    .select(['email', 'full_name', 'language', 'email_verified', 'course_update_emails', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const [orders, sessions, passkeys, messages, subscription] = await Promise.all([
    // Only what the account may see: a guest purchase at an unverified address may be someone else's.
    listOrders(userId),
    db()
      .selectFrom('sessions')
      .select(['created_at', 'expires_at', 'ip_address', 'user_agent'])
      .where('user_id', '=', userId)
      .execute(),
    db().selectFrom('passkeys').select(['name', 'created_at', 'last_used_at']).where('user_id', '=', userId).execute(),
    // Messages are filed by address: only an account that proved the address may read them.
    user.email_verified
      ? db().selectFrom('contact_messages').select(['created_at', 'subject', 'message']).where('email', '=', user.email).execute()
      : [],
    // So is a news subscription: its consent record, as the admin sees it.
    user.email_verified ? subscriptionOfAddress(user.email) : null,
  ]);
  return {
    exportedAt: new Date().toISOString(),
    account: {
      email: user.email,
      fullName: user.full_name,
      language: user.language,
      emailVerified: user.email_verified,
      courseUpdateEmails: user.course_update_emails,
      createdAt: user.created_at.toISOString(),
    },
    orders: orders.map(({ courseTitle, ...order }) => ({ course: courseTitle, ...order })),
    sessions: sessions.map((session) => ({
      createdAt: session.created_at.toISOString(),
      expiresAt: session.expires_at.toISOString(),
      ipAddress: session.ip_address,
      userAgent: session.user_agent,
    })),
    passkeys: passkeys.map((passkey) => ({
      name: passkey.name,
      createdAt: passkey.created_at.toISOString(),
      lastUsedAt: passkey.last_used_at?.toISOString() ?? null,
    })),
    contactMessages: messages.map((message) => ({ ...message, created_at: message.created_at.toISOString() })),
    newsSubscription: subscription,
  };
}

/**
 * Erases a person: the account, its sessions and sign-in methods, their messages and mail, and the
 * PDF copies stamped with their name. Orders stay for the accounts (amounts, dates, courses) with
 * nothing left that names or reaches the person.
 */
export async function deleteAccount(userId: string): Promise<void> {
  const erased = await db()
    .transaction()
    .execute(async (trx) => {
      const user = await trx
        .selectFrom('users')
        .select(['email', 'email_verified'])
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
      if (!user) return [];
      // An account that never proved its address may not be the address's owner: guest purchases, the
      // owner's messages and mail are theirs, so they are only let go of (checkout.ts finds them again).
      if (!user.email_verified) {
        await trx
          .updateTable('purchases')
          .set({ user_id: null })
          .where('user_id', '=', userId)
          .where('guest', '=', true)
          .execute();
      }
      const orders = await trx
        .selectFrom('purchases')
        .innerJoin('courses', 'courses.id', 'purchases.course_id')
        .select(['purchases.id', 'courses.pdf_path'])
        .where((eb) =>
          eb.or([
            eb('purchases.user_id', '=', userId),
            // The orders of the gifts they gave are in nobody's library (orders/gifts.ts) but name them.
            eb('purchases.id', 'in', eb.selectFrom('gifts').select('gifts.order_id').where('gifts.buyer_id', '=', userId)),
          ]),
        )
        .execute();
      for (const order of orders) {
        await trx
          .updateTable('purchases')
          .set({ user_id: null, email: `${order.id}@deleted.invalid`, full_name: '', updated_at: new Date() })
          .where('id', '=', order.id)
          .execute();
      }
      if (user.email_verified) {
        await trx.deleteFrom('contact_messages').where('email', '=', user.email).execute();
        await trx.deleteFrom('mail_outbox').where('recipient', '=', user.email).execute();
      }
      await trx.deleteFrom('sign_in_failures').where('email', '=', user.email).execute();
      // Outstanding sign-in links (their value names the address) and password resets (the account id).
      await trx
        .deleteFrom('verifications')
        .where((eb) =>
          eb.or([
            eb.and([eb('identifier', 'like', 'magic-link:%'), eb(sql`value::jsonb ->> 'email'`, '=', user.email)]),
            eb('value', '=', userId),
          ]),
        )
        .execute();
      await trx.deleteFrom('users').where('id', '=', userId).execute();
      return orders;
    });
  for (const order of erased) if (order.pdf_path) await deleteStampedCopies([order.id], order.pdf_path);
}

/** The session's age, to tell whether its holder just signed in. */
export async function sessionIsFresh(userId: string, headers: Headers): Promise<boolean> {
  const session = await auth().api.getSession({ headers });
  if (session?.user.id !== userId) return false;
  return Date.now() - new Date(session.session.createdAt).getTime() < FRESH_SESSION_MS;
}

/**
 * Re-authentication for a sensitive change: the account's password, or for an account without one
 * a session begun in the last 15 minutes (a fresh sign-in link or passkey).
 */
export async function reauthentication(
  userId: string,
  password: string | undefined,
  headers: Headers,
): Promise<'ok' | 'password_required' | 'wrong_password' | 'sign_in_again'> {
  if (await hasPassword(userId)) {
    if (!password) return 'password_required';
    return (await passwordMatches(userId, password)) ? 'ok' : 'wrong_password';
  }
  return (await sessionIsFresh(userId, headers)) ? 'ok' : 'sign_in_again';
}

/** Whether the password is this account's (for re-authentication before deleting). */
export async function passwordMatches(userId: string, password: string): Promise<boolean> {
  const account = await db()
    .selectFrom('accounts')
    .select('password')
    .where('user_id', '=', userId)
    .where('provider_id', '=', 'credential')
    .executeTakeFirst();
  if (!account?.password) return false;
  const context = await auth().$context;
  return context.password.verify({ hash: account.password, password });
}
