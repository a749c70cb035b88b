import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { LinkToken } from '../auth/link-tokens.ts';

/** A rendered mail, as the outbox keeps it until the worker sends it (see template.ts renderMail). */
export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
  language: Language;
  kind: string;
  /** The sender's display name (the shop's); the address is MAIL_FROM's. */
  fromName?: string;
  replyTo?: string;
  /** One-click unsubscribe address (RFC 8058), for mail that is not strictly transactional. */
  listUnsubscribe?: string;
  /** The expiring link in this mail (at LINK_TOKEN_SLOT): the worker mints its token at sending. */
  link?: LinkToken;
  /**
   * The subscriber a marketing mail is for: the worker sends it only while they are still active
   * (an unsubscribe arriving after it was queued is honoured; worker.ts withdrawUnwantedMail).
   */
  subscriberId?: string;
  /** Rendered by the worker as it sends it, from this (template.ts queueMailToRender); html and text are '' until then. */
  renderWith?: { props: unknown; delivery: Record<string, unknown> };
}

/** A mail its worker renders as it sends it (template.ts mailToRender). */
export type MailRenderedWhenSent = Mail & Required<Pick<Mail, 'renderWith'>>;

/** Queues a mail; pass the transaction that causes it, so both commit or neither does. */
export async function queueMail(database: Db, mail: Mail): Promise<string> {
  const row = await database.insertInto('mail_outbox').values(outboxRow(mail)).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Mails queued per statement: 13 parameters each, far below PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 1000;

/** Queues many mails with a few statements (an import's thousands), as `queueMail` queues one. */
export async function queueMails(database: Db, mails: Mail[]): Promise<void> {
  for (let start = 0; start < mails.length; start += ROWS_PER_INSERT)
    await database
      .insertInto('mail_outbox')
      .values(mails.slice(start, start + ROWS_PER_INSERT).map(outboxRow))
      .execute();
}

/** A mail as its outbox row (queueMail; numbering.ts issueReceipt writes one with its receipt's number). */
export function outboxRow(mail: Mail) {
  return {
    recipient: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    language: mail.language,
    kind: mail.kind,
    from_name: mail.fromName ?? null,
    reply_to: mail.replyTo ?? null,
    list_unsubscribe: mail.listUnsubscribe ?? null,
    link_token: mail.link ? JSON.stringify(mail.link) : null,
    render_with: mail.renderWith ? JSON.stringify(mail.renderWith) : null,
    subscriber_id: mail.subscriberId ?? null,
  };
}

/** Refused this many times (about 2.5 minutes of failures from the first try), a mail is failing. */
export const FAILING_AFTER_ATTEMPTS = 5;
/** Unsent this long, whatever the reason (SMTP refusing, no SMTP set, no shop running), a mail is stuck. */
export const STUCK_AFTER_S = 15 * 60;

/** Mail that is failing or stuck: what the admin overview and `npm run doctor` show. */
export interface UnsentMail {
  count: number;
  /** When the oldest of them was queued. */
  oldestQueuedAt: Date | null;
  /** The most recent refusal among them (SMTP's own words); null when none was ever tried. */
  lastError: string | null;
}

export async function unsentMail(database: Db): Promise<UnsentMail> {
  const { rows } = await sql<{ count: number; oldest_queued_at: Date | null; last_error: string | null }>`
    SELECT count(*)::int AS count, min(created_at) AS oldest_queued_at,
      (array_agg(last_error ORDER BY next_attempt_at DESC) FILTER (WHERE last_error IS NOT NULL))[1] AS last_error
    FROM mail_outbox
    WHERE status = 'pending'
      AND (attempts >= ${FAILING_AFTER_ATTEMPTS} OR created_at < now() - make_interval(secs => ${STUCK_AFTER_S}))`.execute(
    database,
  );
  const row = rows[0]!;
  return { count: row.count, oldestQueuedAt: row.oldest_queued_at, lastError: row.last_error };
}

/**
 * Every mail that has been refused goes out at the worker's next round, its back-off started afresh:
 * what the admin does once SMTP works again, instead of waiting up to an hour. Returns how many.
 */
export async function resendRefusedMail(database: Db): Promise<number> {
  const result = await database
    .updateTable('mail_outbox')
    .set({ attempts: 0, next_attempt_at: new Date() })
    .where('status', '=', 'pending')
    .where('attempts', '>', 0)
    // A mail a worker holds right now is being sent, not refused: its attempt is the worker's to finish.
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
