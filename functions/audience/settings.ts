import { db, type Db } from '../db/database.ts';
import { log } from '../log.ts';
import { writeSettingsRow } from '../shop/settings-row.ts';
import { MESSAGES, type MessageKey } from '../../src/i18n/i18n.ts';
import { LANGUAGES, type Language } from '../../src/i18n/languages.ts';
import {
  AUTOMATIC_MAILS,
  AudienceSettingsSchema,
  type AudienceSettings,
  type AutomaticMail,
  type MailTexts,
} from '../../src/lib/admin/mail.schema.ts';

/** Broadcast mails handed to the outbox per minute until the seller sets another rate. */
export const DEFAULT_RATE_PER_MINUTE = 60;

/**
 * Until the seller saves their own: 60 broadcast mails a minute (a rate new sending domains and small
 * SMTP plans accept), the welcome on (it was always sent), the review request (7 days after a purchase)
 * and the checkout reminder off: both are advertising the seller should choose to send.
 */
export const BUILT_IN_AUDIENCE_SETTINGS: AudienceSettings = {
  ratePerMinute: DEFAULT_RATE_PER_MINUTE,
  reviewAfterDays: 7,
  automatic: Object.fromEntries(
    AUTOMATIC_MAILS.map((kind) => [
      kind,
      {
        enabled: kind === 'welcome',
        texts: Object.fromEntries(LANGUAGES.map((language) => [language, { subject: '', body: '' }])),
      },
    ]),
  ) as AudienceSettings['automatic'],
};

export async function audienceSettings(database: Db = db()): Promise<AudienceSettings> {
  const row = await database.selectFrom('audience_settings').select('settings').executeTakeFirst();
  if (!row) return BUILT_IN_AUDIENCE_SETTINGS;
  const parsed = AudienceSettingsSchema.safeParse(row.settings);
  if (parsed.success) return parsed.data;
  log.error({ issues: parsed.error.issues.length }, 'audience settings in the database are not valid; using the built-in ones');
  return BUILT_IN_AUDIENCE_SETTINGS;
}

/** Saves the settings (already checked by the caller's schema). */
export async function saveAudienceSettings(settings: AudienceSettings, database: Db = db()): Promise<AudienceSettings> {
  await database.transaction().execute((trx) => writeSettingsRow(trx, 'audience_settings', settings));
  return settings;
}

/** Each automatic mail's default words: the locale files' own, with their `{{placeholders}}` unfilled. */
const DEFAULT_KEYS = {
  welcome: { subject: 'mail.welcomeSubject', body: 'mail.welcomeIntro' },
  'review-request': { subject: 'mail.reviewRequestSubject', body: 'mail.reviewRequestBody' },
  'checkout-reminder': { subject: 'mail.checkoutReminderSubject', body: 'mail.checkoutReminderBody' },
} as const satisfies Record<AutomaticMail, { subject: MessageKey; body: MessageKey }>;

export function defaultTexts(kind: AutomaticMail, language: Language): MailTexts {
  const keys = DEFAULT_KEYS[kind];
  return { subject: MESSAGES[language][keys.subject], body: MESSAGES[language][keys.body] };
}

/** The words an automatic mail goes out with in a language: the seller's, where they wrote some. */
export function textsOf(settings: AudienceSettings, kind: AutomaticMail, language: Language): MailTexts {
  const own = settings.automatic[kind].texts[language];
  const defaults = defaultTexts(kind, language);
  return { subject: own.subject || defaults.subject, body: own.body || defaults.body };
}

/** `{{shop}}`, `{{course}}`: the placeholders the seller may write, filled (unknown ones are left as written). */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => values[name] ?? match);
}
