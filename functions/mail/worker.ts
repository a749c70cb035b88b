import nodemailer from 'nodemailer';
import { sql } from 'kysely';
import { siteUrl } from '../env.ts';
import type { Db } from '../db/database.ts';
import { LINK_TOKEN_SLOT, mintLinkToken, type LinkToken } from '../auth/link-tokens.ts';
import type { Delivery } from './template.ts';
import { MAIL_RENDERERS } from './templates/index.ts';

/** A queued mail as the worker hands it over. */
export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  fromName: string | null;
  replyTo: string | null;
  listUnsubscribe: string | null;
}

/** Where the worker hands mail: SMTP, or the dev mailbox (kept in the database, shown at /dev/mailbox). */
export interface MailTransport {
  name: 'smtp' | 'mailbox';
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * SMTP with what mailbox providers look for: From in the shop's name on MAIL_FROM's address, Reply-To,
 * a Message-ID on the site's own domain (the outbox id: a retry keeps it, so a duplicate is
 * recognisable), and RFC 8058 one-click unsubscribe on mail that is not strictly transactional.
 */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  const sender = parseAddress(from);
  const domain = new URL(siteUrl()).hostname;
  return {
    name: 'smtp',
    send: async (mail) => {
      await transporter.sendMail({
        from: { name: mail.fromName ?? sender.name, address: sender.address },
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        messageId: `<${mail.id}@${domain}>`,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        ...(mail.listUnsubscribe
          ? {
              headers: { 'List-Unsubscribe': `<${mail.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            }
          : {}),
      });
    },
  };
}

/** `Name <address>` or a bare address. */
function parseAddress(value: string): { name: string; address: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  return match ? { name: match[1]!.trim(), address: match[2]!.trim() } : { name: '', address: value.trim() };
}

/**
 * A mail queued to be rendered when sent (template.ts queueMailToRender): rendered now, and kept in
 * its row as any other queued mail is (the slot, not the link), before it is handed over.
 */
async function renderQueued(
  database: Db,
  id: string,
  kind: string,
  { props, delivery }: { props: unknown; delivery: Delivery },
): Promise<{ html: string; text: string }> {
  const render = MAIL_RENDERERS.get(kind);
  if (!render) throw new Error(`No template renders ${kind} mail`);
  const { html, text } = await render(props, delivery, database);
  await database.updateTable('mail_outbox').set({ html, text, render_with: null }).where('id', '=', id).execute();
  return { html, text };
}

/** The dev mailbox keeps the mail as it was delivered (a sign-in link included) in its outbox row. */
export function mailboxTransport(database: Db): MailTransport {
  return {
    name: 'mailbox',
    send: async (mail) => {
      await database.updateTable('mail_outbox').set({ html: mail.html, text: mail.text }).where('id', '=', mail.id).execute();
    },
  };
}

/**
 * Marketing mail whose subscriber is no longer active (they left after it was queued) is never sent:
 * marked withdrawn, which the broadcast's counts show. The claim below checks the same in its own
 * statement, so a mail claimed is one whose reader still wanted it a moment before it left.
 */
export async function withdrawUnwantedMail(database: Db): Promise<number> {
  const withdrawn = await sql`
    UPDATE mail_outbox SET status = 'withdrawn', locked_until = NULL
    FROM subscribers
    WHERE mail_outbox.status = 'pending' AND mail_outbox.subscriber_id = subscribers.id AND subscribers.status <> 'active'`.execute(
    database,
  );
  return Number(withdrawn.numAffectedRows ?? 0);
}

/** Whether a marketing mail's subscriber is still active; if not, the mail is withdrawn, never sent. */
async function stillWanted(database: Db, mailId: string, subscriberId: string): Promise<boolean> {
  const subscriber = await database.selectFrom('subscribers').select('status').where('id', '=', subscriberId).executeTakeFirst();
  if (subscriber?.status === 'active') return true;
  await database.updateTable('mail_outbox').set({ status: 'withdrawn', locked_until: null }).where('id', '=', mailId).execute();
  return false;
}

export const MAIL_BATCH_SIZE = 20;
/** How often each instance looks for due mail (functions/jobs/shop-jobs.ts); a full batch is followed at once. */
export const MAIL_INTERVAL_MS = 1000;
const LOCK_S = 120;
const FIRST_RETRY_S = 5;
/** Reached after 10 attempts (about 1.4 hours of failures); from then on a mail is tried hourly. */
export const MAX_RETRY_S = 60 * 60;

/**
 * Sends due mail once. Rows are claimed with a lock that expires, so a crashed worker's mail is
 * retried (at least once); a row is marked sent right after the transport confirms (never twice).
 *
 * A mail is never given up: after the back-off reaches MAX_RETRY_S it is tried every hour until it
 * leaves or an operator acts (outbox.ts: the overview and the doctor show it, the admin resends).
 * Not even an SMTP 5xx ends it: through a relay, a permanent-looking refusal is as often the shop's
 * own configuration (an unverified sender, relaying denied, a suspended account) as the recipient,
 * and giving up on it would lose every mail of the outage. An hourly attempt at a mailbox that
 * really does not exist costs one SMTP exchange.
 */
export async function deliverDueMail(database: Db, transport: MailTransport): Promise<{ sent: number; failed: number }> {
  await withdrawUnwantedMail(database);
  const claimed = await sql<{
    id: string;
    recipient: string;
    subject: string;
    html: string;
    text: string;
    from_name: string | null;
    reply_to: string | null;
    list_unsubscribe: string | null;
    link_token: LinkToken | null;
    render_with: { props: unknown; delivery: Delivery } | null;
    subscriber_id: string | null;
    kind: string;
    attempts: number;
  }>`
    UPDATE mail_outbox SET locked_until = now() + make_interval(secs => ${LOCK_S}), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM mail_outbox
      WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        AND (subscriber_id IS NULL OR EXISTS (
          SELECT 1 FROM subscribers WHERE subscribers.id = mail_outbox.subscriber_id AND subscribers.status = 'active'))
      ORDER BY next_attempt_at LIMIT ${MAIL_BATCH_SIZE} FOR UPDATE SKIP LOCKED)
    RETURNING id, recipient, subject, html, text, from_name, reply_to, list_unsubscribe, link_token, render_with, subscriber_id, kind, attempts`.execute(
    database,
  );

  let sent = 0;
  let failed = 0;
  for (const mail of claimed.rows) {
    try {
      // A batch is sent one mail after another: a reader who left while earlier ones were sent is honoured.
      if (mail.subscriber_id && !(await stillWanted(database, mail.id, mail.subscriber_id))) continue;
      if (mail.render_with) Object.assign(mail, await renderQueued(database, mail.id, mail.kind, mail.render_with));
      // Minted now, so a link's lifetime starts when the mail leaves; the outbox row keeps only the slot.
      const token = mail.link_token ? await mintLinkToken(database, mail.link_token) : undefined;
      const withLink = (body: string) => (token ? body.replaceAll(LINK_TOKEN_SLOT, encodeURIComponent(token)) : body);
      await transport.send({
        id: mail.id,
        to: mail.recipient,
        subject: mail.subject,
        html: withLink(mail.html),
        text: withLink(mail.text),
        fromName: mail.from_name,
        replyTo: mail.reply_to,
        listUnsubscribe: mail.list_unsubscribe,
      });
      await database
        .updateTable('mail_outbox')
        .set({ status: 'sent', sent_at: new Date(), delivered_via: transport.name, locked_until: null, last_error: null })
        .where('id', '=', mail.id)
        .execute();
      sent++;
    } catch (error) {
      failed++;
      const retryInS = Math.min(FIRST_RETRY_S * 2 ** (mail.attempts - 1), MAX_RETRY_S);
      await database
        .updateTable('mail_outbox')
        .set({
          next_attempt_at: new Date(Date.now() + retryInS * 1000),
          locked_until: null,
          last_error: String((error as Error).message ?? error).slice(0, 1000),
        })
        .where('id', '=', mail.id)
        .execute();
    }
  }
  return { sent, failed };
}
