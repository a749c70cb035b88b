import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Language } from '../../src/i18n/languages.ts';

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
  language: Language;
  kind: string;
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
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
