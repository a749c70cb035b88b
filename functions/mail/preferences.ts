import { idOfSignedToken, signedIdToken } from '../auth/signing.ts';
import { db } from '../db/database.ts';
import { siteUrl } from '../env.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * The one mail a buyer may turn off: course update notices. Each such mail carries a link signed for
 * its reader's account (no sign-in needed, nothing to guess), for the footer's page and for the
 * one-click unsubscribe that mail clients send (RFC 8058).
 */
const PURPOSE = 'unsubscribe';

export function unsubscribeToken(userId: string): string {
  return signedIdToken(PURPOSE, userId);
}

export function unsubscribeLinks(userId: string, language: Language): { oneClickUrl: string; pageUrl: string } {
  const token = encodeURIComponent(unsubscribeToken(userId));
  return {
    oneClickUrl: `${siteUrl()}/api/mail/unsubscribe?token=${token}`,
    pageUrl: `${siteUrl()}/${language}/unsubscribe?token=${token}`,
  };
}

/** The account a token was signed for; undefined for a malformed or tampered one. */
export function accountOfToken(token: string): string | undefined {
  return idOfSignedToken(PURPOSE, token);
}

/** Whether the account still wants course update notices; undefined when there is no such account. */
export async function wantsCourseUpdates(userId: string): Promise<boolean | undefined> {
  const row = await db().selectFrom('users').select('course_update_emails').where('id', '=', userId).executeTakeFirst();
  return row?.course_update_emails;
}

/** Turns course update notices off or on; false when there is no such account. */
export async function setCourseUpdates(userId: string, wanted: boolean): Promise<boolean> {
  const result = await db()
    .updateTable('users')
    .set({ course_update_emails: wanted, updated_at: new Date() })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
