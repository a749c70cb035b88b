import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
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
}

/** Queues a mail; pass the transaction that causes it, so both commit or neither does. */
export async function queueMail(database: Kysely<Database> | Transaction<Database>, mail: Mail): Promise<string> {
  const row = await database
    .insertInto('mail_outbox')
    .values({
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
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
