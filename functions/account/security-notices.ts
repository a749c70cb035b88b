import type { Db } from '../db/database.ts';
import { siteUrl } from '../env.ts';
import { log } from '../log.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { securityNotice, type SecurityEvent } from '../mail/templates/security-notice.ts';
import { getT, type MessageKey } from '../../src/i18n/i18n.ts';
import { asLanguage, LOCALE_OF, localizedPath } from '../../src/i18n/languages.ts';
import { describeDevice, deviceKey } from './devices.ts';

/**
 * Security mails, through the outbox, in the account's language: a sign-in from a device not seen
 * before, a password changed, two-factor on or off, a passkey added, a new address (told to the old one). Each says
 * what to do if it was not the owner. A mail that cannot be queued never undoes the change it tells of.
 */
export async function sendSecurityNotice(
  database: Db,
  userId: string,
  event: SecurityEvent,
  {
    userAgent,
    to,
    newEmail,
    passkeyName,
    actor,
  }: {
    userAgent: string | null | undefined;
    to?: string;
    newEmail?: string;
    passkeyName?: string;
    /** Who did it when it was not a browser (the operator's command line), named in place of the device. */
    actor?: MessageKey;
  },
): Promise<void> {
  try {
    const user = await database
      .selectFrom('users')
      .select(['email', 'full_name', 'language'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return;
    const language = asLanguage(user.language);
    const t = getT(language);
    const { browser, os } = describeDevice(userAgent);
    const named = browser || t('sessions.unknownBrowser');
    const at = new Intl.DateTimeFormat(LOCALE_OF[language], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
      new Date(),
    );
    const mail = await renderMail(
      securityNotice,
      {
        name: user.full_name || user.email,
        event,
        device: actor ? t(actor) : os ? t('sessions.deviceOn', { browser: named, os }) : named,
        at: `${at} UTC`,
        settingsUrl: `${siteUrl()}${localizedPath(language, '/dashboard/settings')}`,
        resetUrl: `${siteUrl()}${localizedPath(language, '/forgot-password')}`,
        ...(newEmail ? { newEmail } : {}),
        ...(passkeyName ? { passkeyName } : {}),
      },
      { to: to ?? user.email, language },
      database,
    );
    await queueMail(database, mail);
  } catch (error) {
    log.error({ err: error, event }, 'security notice not queued');
  }
}

/**
 * Remembers the device a new session signed in from; a device the account has not used before,
 * for an account that has used another, gets the owner a mail. The first device of an account (its
 * sign-up, or its first sign-in since devices are remembered) is just remembered.
 */
export async function noteSignInDevice(database: Db, userId: string, userAgent: string | null | undefined): Promise<void> {
  try {
    const known = await database
      .selectFrom('known_devices')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const added = await database
      .insertInto('known_devices')
      .values({ user_id: userId, device: deviceKey(userAgent) })
      .onConflict((conflict) => conflict.columns(['user_id', 'device']).doNothing())
      .returning('device')
      .executeTakeFirst();
    if (added && Number(known.count) > 0) await sendSecurityNotice(database, userId, 'new-sign-in', { userAgent });
  } catch (error) {
    log.error({ err: error }, 'sign-in device not noted');
  }
}
