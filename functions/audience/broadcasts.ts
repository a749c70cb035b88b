import { sql } from 'kysely';
import { db } from '../db/database.ts';
import type { BroadcastsTable } from '../db/schema.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { FAILING_AFTER_ATTEMPTS, queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { broadcast as broadcastTemplate } from '../mail/templates/index.ts';
import { conflict, invalid, notFound, ok, type Result } from '../../src/lib/result.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import type {
  BroadcastAction,
  BroadcastCounts,
  BroadcastInput,
  BroadcastStatus,
  BroadcastView,
} from '../../src/lib/admin/mail.schema.ts';
import type { Selectable, Updateable } from 'kysely';
import { subscriberLinks } from './links.ts';

/**
 * Admin → Mail's broadcasts: written and changed as drafts (or while scheduled), sent now or at a
 * moment, paused, resumed and cancelled. Sending itself is the broadcast-sending job's
 * (broadcast-sending.ts); these only move a broadcast between states, each move allowed from the
 * states listed here and refused from any other (two admins, or a stale page, cannot resume a
 * cancelled broadcast).
 */
export const BROADCASTS_LISTED = 50;
const NIL_SUBSCRIBER = '00000000-0000-0000-0000-000000000000';

const EDITABLE: BroadcastStatus[] = ['draft', 'scheduled'];
const MOVES: Record<BroadcastAction, { from: BroadcastStatus[]; to: BroadcastStatus }> = {
  pause: { from: ['sending'], to: 'paused' },
  resume: { from: ['paused'], to: 'sending' },
  cancel: { from: ['scheduled', 'sending', 'paused'], to: 'cancelled' },
};

const columns = (input: BroadcastInput) => ({
  subject: input.subject,
  body: input.body,
  language: input.language,
  segment: input.segment,
  course_ids: input.segment === 'buyers' ? input.courseIds : [],
  audience_language: input.audienceLanguage === 'any' ? null : input.audienceLanguage,
  topic: input.topic,
  updated_at: new Date(),
});

export async function createBroadcast(input: BroadcastInput): Promise<Result<BroadcastView>> {
  const row = await db().insertInto('broadcasts').values(columns(input)).returningAll().executeTakeFirstOrThrow();
  return ok(toView(row, EMPTY_COUNTS));
}

export async function updateBroadcast(id: string, input: BroadcastInput): Promise<Result<BroadcastView>> {
  if (!isUuid(id)) return notFound;
  return whileEditable(id, columns(input));
}

/** Sends now (the job starts it at its next run) or schedules it; a draft or a scheduled broadcast only. */
export async function sendBroadcast(id: string, at: string | undefined): Promise<Result<BroadcastView>> {
  if (!isUuid(id)) return notFound;
  const sendAt = at ? new Date(at) : new Date();
  if (at && sendAt.getTime() <= Date.now())
    return invalid('send_at_past', 'admin.mail.sendAtPast', { sendAt: 'admin.mail.sendAtPast' });
  return whileEditable(id, { status: 'scheduled', send_at: sendAt, updated_at: new Date() });
}

/** A change to a draft or a scheduled broadcast; one that started is refused. */
async function whileEditable(id: string, change: Updateable<BroadcastsTable>): Promise<Result<BroadcastView>> {
  const row = await db()
    .updateTable('broadcasts')
    .set(change)
    .where('id', '=', id)
    .where('status', 'in', EDITABLE)
    .returningAll()
    .executeTakeFirst();
  if (row) return ok(toView(row, EMPTY_COUNTS));
  return (await exists(id)) ? conflict('not_editable', 'admin.mail.notEditable') : notFound;
}

export async function changeBroadcast(id: string, action: BroadcastAction): Promise<Result<BroadcastView>> {
  if (!isUuid(id)) return notFound;
  const move = MOVES[action];
  const now = new Date();
  const row = await db()
    .updateTable('broadcasts')
    .set({ status: move.to, updated_at: now, ...(move.to === 'cancelled' ? { finished_at: now } : {}) })
    .where('id', '=', id)
    .where('status', 'in', move.from)
    .returningAll()
    .executeTakeFirst();
  if (!row) return (await exists(id)) ? conflict('wrong_state', 'admin.mail.wrongState') : notFound;
  return ok(toView(row, (await countsOf([id])).get(id) ?? EMPTY_COUNTS));
}

export async function getBroadcast(id: string): Promise<Result<BroadcastView>> {
  if (!isUuid(id)) return notFound;
  const row = await db().selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return notFound;
  return ok(toView(row, (await countsOf([id])).get(id) ?? EMPTY_COUNTS));
}

/** The newest broadcasts with their counts. */
export async function listBroadcasts(): Promise<BroadcastView[]> {
  const rows = await db().selectFrom('broadcasts').selectAll().orderBy('created_at', 'desc').limit(BROADCASTS_LISTED).execute();
  const counts = await countsOf(rows.map((row) => row.id));
  return rows.map((row) => toView(row, counts.get(row.id) ?? EMPTY_COUNTS));
}

/**
 * One copy to the admin, as its recipients will get it. Its links work for the admin's own
 * subscription when they have one; otherwise they lead nowhere (a token for nobody).
 */
export async function sendTestBroadcast(id: string, to: string): Promise<Result<{ to: string }>> {
  if (!isUuid(id)) return notFound;
  const row = await db().selectFrom('broadcasts').select(['subject', 'body', 'language']).where('id', '=', id).executeTakeFirst();
  if (!row) return notFound;
  const own = await db().selectFrom('subscribers').select('id').where('mailbox_key', '=', mailboxKey(to)).executeTakeFirst();
  const mail = await renderMail(
    broadcastTemplate,
    { subject: row.subject, markdown: row.body },
    { to, language: row.language, unsubscribe: subscriberLinks(own?.id ?? NIL_SUBSCRIBER, row.language) },
  );
  await queueMail(db(), mail);
  return ok({ to });
}

/** The broadcast as a recipient will see it (HTML, or its plain-text part), with links that lead nowhere. */
export async function previewBroadcast(id: string): Promise<Result<{ html: string; text: string }>> {
  if (!isUuid(id)) return notFound;
  const row = await db().selectFrom('broadcasts').select(['subject', 'body', 'language']).where('id', '=', id).executeTakeFirst();
  if (!row) return notFound;
  const mail = await renderMail(
    broadcastTemplate,
    { subject: row.subject, markdown: row.body },
    { to: 'reader@example.com', language: row.language, unsubscribe: subscriberLinks(NIL_SUBSCRIBER, row.language) },
  );
  return ok({ html: mail.html, text: mail.text });
}

async function exists(id: string): Promise<boolean> {
  return (await db().selectFrom('broadcasts').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

const EMPTY_COUNTS: BroadcastCounts = { waiting: 0, queued: 0, sent: 0, failed: 0, withdrawn: 0, unsubscribedAfter: 0 };

/** Each broadcast's recipients by where their mail is: waiting, in the outbox, sent, failing, withdrawn, and who left after. */
async function countsOf(ids: string[]): Promise<Map<string, BroadcastCounts>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ broadcast_id: string } & Record<keyof BroadcastCounts, string>>`
    SELECT r.broadcast_id,
      count(*) FILTER (WHERE r.status = 'waiting') AS waiting,
      count(*) FILTER (WHERE m.status = 'pending' AND m.attempts < ${FAILING_AFTER_ATTEMPTS}) AS queued,
      count(*) FILTER (WHERE m.status = 'sent') AS sent,
      count(*) FILTER (WHERE m.status = 'pending' AND m.attempts >= ${FAILING_AFTER_ATTEMPTS}) AS failed,
      count(*) FILTER (WHERE r.status = 'skipped' OR m.status = 'withdrawn') AS withdrawn,
      count(*) FILTER (WHERE m.status = 'sent' AND s.status = 'unsubscribed' AND s.unsubscribed_at > m.sent_at) AS "unsubscribedAfter"
    FROM broadcast_recipients r
    JOIN subscribers s ON s.id = r.subscriber_id
    LEFT JOIN mail_outbox m ON m.id = r.mail_id
    WHERE r.broadcast_id = ANY (${ids}::uuid[])
    GROUP BY r.broadcast_id`.execute(db());
  return new Map(
    rows.map((row) => [
      row.broadcast_id,
      {
        waiting: Number(row.waiting),
        queued: Number(row.queued),
        sent: Number(row.sent),
        failed: Number(row.failed),
        withdrawn: Number(row.withdrawn),
        unsubscribedAfter: Number(row.unsubscribedAfter),
      },
    ]),
  );
}

function toView(row: Selectable<BroadcastsTable>, counts: BroadcastCounts): BroadcastView {
  return {
    id: row.id,
    subject: row.subject,
    body: row.body,
    language: row.language,
    segment: row.segment,
    courseIds: row.course_ids,
    audienceLanguage: row.audience_language ?? 'any',
    topic: row.topic,
    status: row.status,
    sendAt: row.send_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    counts,
  };
}

/** Every course, for the composer's "buyers of these courses". */
export function courseChoices(): Promise<{ id: string; title: string }[]> {
  return db().selectFrom('courses').select(['id', 'title']).orderBy('title').orderBy('id').execute();
}
