import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Mail } from '../mail/outbox.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { broadcast as broadcastTemplate } from '../mail/templates/index.ts';
import { slottedSubscriberLinks, withSubscriberToken } from './links.ts';
import { audienceSettings } from './settings.ts';

/**
 * The broadcast-sending job (functions/jobs/shop-jobs.ts): "every second, once across instances"
 * (a periodic job: its `jobs` row is locked for the run, so two instances never feed the same
 * recipients, and a run that dies is rolled back whole and done again by the next). Each run
 *
 * 1. starts the broadcasts whose time came: their audience is fixed then (one row per subscriber
 *    it reaches), so a later sign-up does not join a broadcast half sent;
 * 2. hands the outbox as many recipients' mails as the sending rate allows: never more than
 *    `ratePerMinute` in any minute, across broadcasts and instances (counted from the recipients'
 *    `queued_at`), and paced by the time since the last one was queued (up to five seconds' worth),
 *    so 60 a minute go out one a second, not 60 at once;
 * 3. checks each recipient's consent as their turn comes: one who left is skipped; their mail also
 *    names them, so the worker withdraws it if they leave while it waits in the outbox.
 *
 * Paused and cancelled broadcasts are not fed; a broadcast with nobody waiting is sent.
 */
export const BROADCAST_TICK_MS = 1000;
/** At most this many mails a run, whatever the rate (one run's transaction stays short). */
export const BROADCAST_BATCH_MAX = 500;
const MINUTE_MS = 60_000;
const PACE_CATCH_UP_MS = 5 * BROADCAST_TICK_MS;

export async function sendBroadcastTick(trx: Transaction<Database>, now: Date = new Date()): Promise<number> {
  await startDueBroadcasts(trx, now);
  const { ratePerMinute } = await audienceSettings(trx);
  let allowance = await allowanceAt(trx, ratePerMinute, now);
  const sending = await trx
    .selectFrom('broadcasts')
    .select(['id', 'subject', 'body', 'language'])
    .where('status', '=', 'sending')
    .orderBy('started_at')
    .execute();
  let queued = 0;
  for (const broadcast of sending) {
    const fed = await feedBroadcast(trx, broadcast, allowance, now);
    allowance -= fed;
    queued += fed;
  }
  return queued;
}

type SendingBroadcast = { id: string; subject: string; body: string; language: 'en' | 'tr' };

/** Queues up to `allowance` of one broadcast's waiting recipients' mails; with nobody left waiting, it is sent. */
async function feedBroadcast(
  trx: Transaction<Database>,
  broadcast: SendingBroadcast,
  allowance: number,
  now: Date,
): Promise<number> {
  let mail: Mail | undefined;
  let queued = 0;
  for (;;) {
    const turn = await nextRecipients(trx, broadcast.id, Math.max(allowance - queued, 1));
    if (turn.length === 0) {
      await trx
        .updateTable('broadcasts')
        .set({ status: 'sent', finished_at: now, updated_at: now })
        .where('id', '=', broadcast.id)
        .execute();
      return queued;
    }
    if (queued >= allowance) return queued;
    mail ??= await renderedOnce(trx, broadcast);
    for (const recipient of turn) {
      if (recipient.subscriber_status !== 'active') {
        await markRecipient(trx, broadcast.id, recipient.subscriber_id, { status: 'skipped' });
        continue;
      }
      const mailId = await queueMail(trx, personal(mail, recipient.email, recipient.subscriber_id));
      await markRecipient(trx, broadcast.id, recipient.subscriber_id, { status: 'queued', mail_id: mailId, queued_at: now });
      queued++;
    }
  }
}

/**
 * A broadcast's mail, rendered once for all its recipients (with a slot for each one's links): it
 * cannot change once sending started, so each instance keeps the few it is sending.
 */
const rendered = new Map<string, Mail>();
const RENDERED_KEPT = 8;

async function renderedOnce(trx: Transaction<Database>, broadcast: SendingBroadcast): Promise<Mail> {
  const kept = rendered.get(broadcast.id);
  if (kept) return kept;
  const mail = await renderMail(
    broadcastTemplate,
    { subject: broadcast.subject, markdown: broadcast.body },
    { to: '', language: broadcast.language, unsubscribe: slottedSubscriberLinks(broadcast.language) },
    trx,
  );
  if (rendered.size >= RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
  rendered.set(broadcast.id, mail);
  return mail;
}

/** The mail rendered once for a broadcast, made one recipient's: their address, their unsubscribe links. */
function personal(mail: Mail, to: string, subscriberId: string): Mail {
  const own = (text: string) => withSubscriberToken(text, subscriberId);
  return {
    ...mail,
    to,
    html: own(mail.html),
    text: own(mail.text),
    ...(mail.listUnsubscribe ? { listUnsubscribe: own(mail.listUnsubscribe) } : {}),
    subscriberId,
  };
}

/** How many mails this run may queue: what the last minute left of the rate, paced by the time since the last one. */
async function allowanceAt(trx: Transaction<Database>, ratePerMinute: number, now: Date): Promise<number> {
  const since = new Date(now.getTime() - MINUTE_MS);
  const window = await trx
    .selectFrom('broadcast_recipients')
    .select([(eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.max('queued_at').as('last')])
    .where('queued_at', '>', since)
    .where('queued_at', '<=', now)
    .executeTakeFirstOrThrow();
  const left = ratePerMinute - Number(window.n);
  // After a quiet spell at most a few seconds' worth at once, not the whole minute's.
  const elapsedMs = Math.min(window.last ? now.getTime() - window.last.getTime() : BROADCAST_TICK_MS, PACE_CATCH_UP_MS);
  const paced = Math.round((ratePerMinute * elapsedMs) / MINUTE_MS);
  return Math.max(0, Math.min(left, paced, BROADCAST_BATCH_MAX));
}

function nextRecipients(trx: Transaction<Database>, broadcastId: string, limit: number) {
  return trx
    .selectFrom('broadcast_recipients')
    .innerJoin('subscribers', 'subscribers.id', 'broadcast_recipients.subscriber_id')
    .select(['broadcast_recipients.subscriber_id', 'subscribers.email', 'subscribers.status as subscriber_status'])
    .where('broadcast_recipients.broadcast_id', '=', broadcastId)
    .where('broadcast_recipients.status', '=', 'waiting')
    .orderBy('broadcast_recipients.subscriber_id')
    .limit(limit)
    .execute();
}

function markRecipient(
  trx: Transaction<Database>,
  broadcastId: string,
  subscriberId: string,
  change: { status: 'queued' | 'skipped'; mail_id?: string; queued_at?: Date },
) {
  return trx
    .updateTable('broadcast_recipients')
    .set(change)
    .where('broadcast_id', '=', broadcastId)
    .where('subscriber_id', '=', subscriberId)
    .execute();
}

/** Scheduled broadcasts whose time came start: their audience, as it is now, becomes their recipients. */
async function startDueBroadcasts(trx: Transaction<Database>, now: Date): Promise<void> {
  const due = await trx
    .updateTable('broadcasts')
    .set({ status: 'sending', started_at: now, updated_at: now })
    .where('status', '=', 'scheduled')
    .where('send_at', '<=', now)
    .returning(['id', 'segment', 'course_ids', 'audience_language', 'topic'])
    .execute();
  for (const broadcast of due) {
    await sql`
      INSERT INTO broadcast_recipients (broadcast_id, subscriber_id)
      SELECT ${broadcast.id}::uuid, s.id FROM subscribers s
      WHERE s.status = 'active'
        AND (${broadcast.audience_language}::text IS NULL OR ${broadcast.audience_language}::text = ANY (s.languages))
        AND ${broadcast.topic}::text = ANY (s.topics)
        AND CASE ${broadcast.segment}::text
          WHEN 'buyers' THEN EXISTS (SELECT 1 FROM purchases p WHERE p.buyer_key = s.mailbox_key
            AND p.status = 'completed' AND p.course_id = ANY (${broadcast.course_ids}::uuid[]))
          WHEN 'never-bought' THEN NOT EXISTS (SELECT 1 FROM purchases p WHERE p.buyer_key = s.mailbox_key
            AND p.status IN ('completed', 'refunded', 'disputed'))
          ELSE true END
      ON CONFLICT DO NOTHING`.execute(trx);
  }
}
