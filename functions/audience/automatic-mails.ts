import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { siteUrl } from '../env.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { checkoutReminder, reviewRequest } from '../mail/templates/index.ts';
import { shopIdentity } from '../shop/identity.ts';
import { asLanguage } from '../../src/i18n/languages.ts';
import type { AudienceSettings } from '../../src/lib/admin/mail.schema.ts';
import { subscriberLinks } from './links.ts';
import { audienceSettings, fillPlaceholders, textsOf } from './settings.ts';

/**
 * The automatic mails that follow a purchase or a checkout (the welcome follows a confirmation:
 * confirm.ts). A periodic job (`automatic-mails`, once across instances) queues them; each goes to a
 * subscriber whose consent is confirmed and current (an active subscriber at the buyer's mailbox),
 * once per subscriber and course (automatic_mails_sent's key), in the language of the order.
 *
 * - The review request, `reviewAfterDays` after a completed purchase (within a week of that day, so
 *   turning it on does not mail every past buyer), while the purchase stands and the buyer has not
 *   reviewed the course: a feedback request is advertising (German case law) and a commercial message
 *   (Türkiye's Law 6563), hence the consent. It links to the course page's review form.
 * - The checkout reminder, an hour after a checkout left unpaid and no later than 24 hours after it,
 *   unless that mailbox has bought the course since.
 */
export const AUTOMATIC_MAILS_EVERY_MS = 5 * 60 * 1000;
export const AUTOMATIC_BATCH = 200;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const REMINDER_AFTER_MS = HOUR_MS;
export const REMINDER_WITHIN_MS = DAY_MS;
/** How long after its day a review request may still go (the job was off, or down). */
const REVIEW_WINDOW_MS = 7 * DAY_MS;

interface Due {
  subscriber_id: string;
  email: string;
  course_id: string;
  title: string;
  language: string;
}

export async function sendAutomaticMails(trx: Transaction<Database>, now: Date = new Date()): Promise<number> {
  const settings = await audienceSettings(trx);
  let queued = 0;
  if (settings.automatic['review-request'].enabled) {
    const until = new Date(now.getTime() - settings.reviewAfterDays * DAY_MS);
    const due = await reviewRequestsDue(trx, until, new Date(until.getTime() - REVIEW_WINDOW_MS));
    queued += await queueEach(
      trx,
      settings,
      'review-request',
      due,
      (row) => `${siteUrl()}/${asLanguage(row.language)}/courses/${row.course_id}#reviews`,
    );
  }
  if (settings.automatic['checkout-reminder'].enabled) {
    const due = await checkoutRemindersDue(
      trx,
      new Date(now.getTime() - REMINDER_AFTER_MS),
      new Date(now.getTime() - REMINDER_WITHIN_MS),
    );
    queued += await queueEach(
      trx,
      settings,
      'checkout-reminder',
      due,
      (row) => `${siteUrl()}/${asLanguage(row.language)}/checkout/${row.course_id}`,
    );
  }
  return queued;
}

const TEMPLATES = { 'review-request': reviewRequest, 'checkout-reminder': checkoutReminder } as const;

async function queueEach(
  trx: Transaction<Database>,
  settings: AudienceSettings,
  kind: keyof typeof TEMPLATES,
  due: Due[],
  buttonUrl: (row: Due) => string,
): Promise<number> {
  if (due.length === 0) return 0;
  const shop = await shopIdentity(trx);
  let queued = 0;
  for (const row of due) {
    const first = await trx
      .insertInto('automatic_mails_sent')
      .values({ kind, subscriber_id: row.subscriber_id, course_id: row.course_id })
      .onConflict((conflict) => conflict.doNothing())
      .returning('subscriber_id')
      .executeTakeFirst();
    if (!first) continue;
    const language = asLanguage(row.language);
    const texts = textsOf(settings, kind, language);
    const values = { shop: shop.name, course: row.title };
    const mail = await renderMail(
      TEMPLATES[kind],
      {
        subject: fillPlaceholders(texts.subject, values),
        markdown: fillPlaceholders(texts.body, values),
        buttonUrl: buttonUrl(row),
      },
      { to: row.email, language, unsubscribe: subscriberLinks(row.subscriber_id, language) },
      trx,
    );
    const mailId = await queueMail(trx, { ...mail, subscriberId: row.subscriber_id });
    await trx
      .updateTable('automatic_mails_sent')
      .set({ mail_id: mailId })
      .where('kind', '=', kind)
      .where('subscriber_id', '=', row.subscriber_id)
      .where('course_id', '=', row.course_id)
      .execute();
    queued++;
  }
  return queued;
}

/**
 * Purchases matching `where` whose buyer's mailbox is an active subscriber not yet sent this `kind`
 * for the course: one row per subscriber and course, the one `order` puts first, at most a batch.
 */
async function dueFor(
  trx: Transaction<Database>,
  kind: keyof typeof TEMPLATES,
  where: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
): Promise<Due[]> {
  const { rows } = await sql<Due>`
    SELECT DISTINCT ON (s.id, p.course_id) s.id AS subscriber_id, s.email, p.course_id, c.title, p.language
    FROM purchases p
    JOIN subscribers s ON s.mailbox_key = p.buyer_key AND s.status = 'active'
    JOIN courses c ON c.id = p.course_id
    WHERE ${where}
      AND NOT EXISTS (SELECT 1 FROM automatic_mails_sent a WHERE a.kind = ${kind} AND a.subscriber_id = s.id AND a.course_id = p.course_id)
    ORDER BY s.id, p.course_id, ${order}
    LIMIT ${AUTOMATIC_BATCH}`.execute(trx);
  return rows;
}

/** Completed purchases between `from` and `until` by an active subscriber who may review and has not. */
function reviewRequestsDue(trx: Transaction<Database>, until: Date, from: Date): Promise<Due[]> {
  return dueFor(
    trx,
    'review-request',
    sql`p.status = 'completed' AND p.user_id IS NOT NULL AND p.completed_at <= ${until} AND p.completed_at > ${from}
      AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.user_id = p.user_id AND r.course_id = p.course_id)`,
    sql`p.completed_at`,
  );
}

/** Checkouts left unpaid between `from` and `until` by an active subscriber whose mailbox never bought the course. */
function checkoutRemindersDue(trx: Transaction<Database>, until: Date, from: Date): Promise<Due[]> {
  return dueFor(
    trx,
    'checkout-reminder',
    sql`p.status IN ('pending', 'expired', 'failed') AND p.created_at <= ${until} AND p.created_at > ${from}
      AND NOT EXISTS (SELECT 1 FROM purchases b WHERE b.buyer_key = p.buyer_key AND b.course_id = p.course_id
        AND b.status IN ('completed', 'refunded', 'disputed'))`,
    sql`p.created_at DESC`,
  );
}
