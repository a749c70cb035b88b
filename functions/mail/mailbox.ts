import { db, type Db } from '../db/database.ts';

export interface MailboxMessage {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  status: string;
  createdAt: Date;
  links: string[];
}

export const MAILBOX_LIMIT = 50;

/** The newest queued or sent mail, for the dev mailbox page (never in production). */
export async function listMailbox(recipient?: string, database: Db = db()): Promise<MailboxMessage[]> {
  let query = database
    .selectFrom('mail_outbox')
    .select(['id', 'recipient', 'subject', 'text', 'status', 'created_at'])
    .orderBy('created_at', 'desc')
    .limit(MAILBOX_LIMIT);
  if (recipient) query = query.where('recipient', '=', recipient.trim().toLowerCase());
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    recipient: row.recipient,
    subject: row.subject,
    text: row.text,
    status: row.status,
    createdAt: row.created_at,
    // A queued mail's sign-in link gets its token only as it leaves (worker.ts): no link before then.
    links: row.status === 'sent' ? [...row.text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]) : [],
  }));
}
