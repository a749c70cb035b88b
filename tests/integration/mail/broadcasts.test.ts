import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, db, type Db } from '../../../functions/db/database.ts';
import { changeBroadcast, createBroadcast, getBroadcast, sendBroadcast } from '../../../functions/audience/broadcasts.ts';
import { sendBroadcastTick } from '../../../functions/audience/broadcast-sending.ts';
import { sendAutomaticMails } from '../../../functions/audience/automatic-mails.ts';
import { BUILT_IN_AUDIENCE_SETTINGS, saveAudienceSettings } from '../../../functions/audience/settings.ts';
import { mailboxKey } from '../../../functions/mail/mailbox-key.ts';
import { savePreferences } from '../../../functions/audience/preferences.ts';
import { deliverDueMail, smtpTransport } from '../../../functions/mail/worker.ts';
import { shopJobs } from '../../../functions/jobs/shop-jobs.ts';
import { startJobs } from '../../../functions/jobs/runner.ts';
import { log } from '../../../functions/log.ts';
import { makeCourse, makePurchase, okValue, uniqueEmail } from '../../support/factories.ts';
import { mailHeaders, plainText, startSmtpServer } from '../../support/smtp.ts';
import { broadcastDraft, makeSubscribers, unsubscribeByOneClick } from '../../support/subscribers.ts';

/**
 * Broadcasts and automatic mails over the real outbox, the real job runner and a real SMTP server.
 * The full-strength case (5,000 subscribers, two instances) is tests/sweep/broadcast-5000.test.ts.
 */
vi.spyOn(log, 'info').mockImplementation(() => undefined);
const FROM = 'Shop <no-reply@shop.test>';
const draft = broadcastDraft;

const recipientStatuses = async (broadcastId: string) =>
  db().selectFrom('broadcast_recipients').select(['subscriber_id', 'status']).where('broadcast_id', '=', broadcastId).execute();

describe('a broadcast', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let other: Db;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    other = createDb(process.env.DATABASE_URL!, 3);
  });
  afterAll(async () => {
    await other.destroy();
    await smtp.stop();
  });

  it('goes to 30 subscribers through two instances once each, paused and resumed, honouring an unsubscribe mid-send', async () => {
    const subscribers = await makeSubscribers(30, 'bc', ['en']);
    // Raised for the test: 1,200 a minute is 20 a run, one run a second (the 60-a-minute default is checked below).
    await saveAudienceSettings({ ...BUILT_IN_AUDIENCE_SETTINGS, ratePerMinute: 1200 });
    const { id } = okValue(await createBroadcast(draft({ audienceLanguage: 'en' })));
    okValue(await sendBroadcast(id, undefined));

    const settings = { transport: smtpTransport(smtp.url, FROM), jobsIntervalMs: 100, blogIntervalMs: 60_000 };
    const instances = [startJobs(db(), shopJobs(settings)), startJobs(other, shopJobs(settings))];
    let leftId = '';
    try {
      // Paused as soon as the first run (20 of 30) has queued, before the next run a second later.
      await expect.poll(async () => okValue(await getBroadcast(id)).counts.waiting, { timeout: 10_000, interval: 20 }).toBe(10);
      expect(okValue(await changeBroadcast(id, 'pause')).status).toBe('paused');
      // Paused, a run queues nothing of it (mail already in the outbox still leaves). A run that began
      // before the pause ends within milliseconds: its work is counted before looking.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const whilePaused = okValue(await getBroadcast(id)).counts;
      await db()
        .transaction()
        .execute((trx) => sendBroadcastTick(trx));
      expect(okValue(await getBroadcast(id)).counts.waiting).toBe(whilePaused.waiting);
      expect(whilePaused.waiting).toBeGreaterThan(0);

      // One who has not had their turn leaves: they are skipped when it comes.
      leftId = (await recipientStatuses(id)).find((row) => row.status === 'waiting')!.subscriber_id;
      await unsubscribeByOneClick(leftId);
      expect(okValue(await changeBroadcast(id, 'resume')).status).toBe('sending');
      await expect.poll(async () => okValue(await getBroadcast(id)).status, { timeout: 15_000, interval: 100 }).toBe('sent');
      await expect.poll(() => smtp.messages.length, { timeout: 15_000, interval: 50 }).toBe(29);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }

    const received = smtp.messages.flatMap((message) => message.to).sort();
    const expected = subscribers.filter((subscriber) => subscriber.id !== leftId).map((subscriber) => subscriber.email);
    // Each once: 29 mails, 29 different addresses, the one who left not among them.
    expect(received).toEqual(expected.sort());
    const one = smtp.messages[0]!;
    expect(mailHeaders(one.raw)['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mailHeaders(one.raw)['list-unsubscribe']).toMatch(/\/api\/audience\/unsubscribe\?token=/);
    expect(plainText(one.raw)).toContain('new course');
    expect(okValue(await getBroadcast(id)).counts).toEqual({
      waiting: 0,
      queued: 0,
      sent: 29,
      failed: 0,
      withdrawn: 1,
      unsubscribedAfter: 0,
    });
  }, 40_000);

  it('is not sent to a subscriber who leaves while it waits in the outbox', async () => {
    await saveAudienceSettings({ ...BUILT_IN_AUDIENCE_SETTINGS, ratePerMinute: 6000 });
    const [stays, leaves] = await makeSubscribers(2, 'outbox', ['tr']);
    const { id } = okValue(await createBroadcast(draft({ segment: 'never-bought', audienceLanguage: 'tr' })));
    okValue(await sendBroadcast(id, undefined));
    await db()
      .transaction()
      .execute((trx) => sendBroadcastTick(trx));
    expect((await recipientStatuses(id)).map((row) => row.status)).toEqual(['queued', 'queued']);
    await unsubscribeByOneClick(leaves!.id);
    const before = smtp.messages.length;
    while ((await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).sent > 0);
    const to = smtp.messages.slice(before).flatMap((message) => message.to);
    expect(to).toContain(stays!.email);
    expect(to).not.toContain(leaves!.email);
    expect(okValue(await getBroadcast(id)).counts.withdrawn).toBe(1);
  });

  it('goes only to subscribers who kept its topic on their preferences page', async () => {
    const [both, unticked, articlesOnly] = await makeSubscribers(3, 'topic', ['en'], ['courses', 'articles']);
    okValue(await savePreferences(unticked!.id, { languages: ['en'], topics: ['courses'] }));
    okValue(await savePreferences(articlesOnly!.id, { languages: ['en'], topics: ['articles'] }));
    const { id } = okValue(await createBroadcast(draft({ topic: 'articles', audienceLanguage: 'en' })));
    expect(okValue(await getBroadcast(id)).topic).toBe('articles');
    okValue(await sendBroadcast(id, undefined));
    await db()
      .transaction()
      .execute((trx) => sendBroadcastTick(trx));
    const recipients = new Set((await recipientStatuses(id)).map((row) => row.subscriber_id));
    expect([both!.id, unticked!.id, articlesOnly!.id].map((subscriber) => recipients.has(subscriber))).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('keeps to the default 60 a minute, one a second, on a fake clock', async () => {
    await saveAudienceSettings(BUILT_IN_AUDIENCE_SETTINGS);
    await makeSubscribers(64, 'rate', ['tr']);
    const audience = await db()
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'active')
      .where(sql<boolean>`'tr' = ANY (languages)`)
      .executeTakeFirstOrThrow();
    const { id } = okValue(await createBroadcast(draft({ language: 'tr', audienceLanguage: 'tr' })));
    okValue(await sendBroadcast(id, undefined));
    // The clock the job is given: a run every second for 66 seconds, from past the minute of the mail sent above.
    const start = Date.now() + 61_000;
    const perRun: number[] = [];
    for (let second = 0; second < 66; second++)
      perRun.push(
        await db()
          .transaction()
          .execute((trx) => sendBroadcastTick(trx, new Date(start + second * 1000))),
      );
    expect(Math.max(...perRun)).toBe(1);
    for (let from = 0; from + 60 <= perRun.length; from++)
      expect(perRun.slice(from, from + 60).reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(60);
    expect(perRun.slice(0, 60).reduce((sum, n) => sum + n, 0)).toBe(60);
    expect(perRun.reduce((sum, n) => sum + n, 0)).toBe(Number(audience.n));
    expect(okValue(await getBroadcast(id)).status).toBe('sent');
  });
});

describe('automatic mails', () => {
  const HOUR = 60 * 60 * 1000;
  const run = (now: Date) =>
    db()
      .transaction()
      .execute((trx) => sendAutomaticMails(trx, now));
  const mailsTo = (email: string, kind: string) =>
    db().selectFrom('mail_outbox').select(['subject', 'text']).where('recipient', '=', email).where('kind', '=', kind).execute();

  it('remind a subscriber of a checkout left unpaid once, within 24 hours, never after they bought, never a non-subscriber', async () => {
    const settings = structuredClone(BUILT_IN_AUDIENCE_SETTINGS);
    settings.automatic['checkout-reminder'].enabled = true;
    await saveAudienceSettings(settings);
    const course = await makeCourse({ title: 'Your Emergency Fund' });
    const [reader, buyer] = await makeSubscribers(2, 'checkout', ['en']);
    const stranger = uniqueEmail('stranger');
    const at = new Date(Date.now() - 2 * HOUR);
    for (const email of [reader!.email, buyer!.email, stranger])
      await makePurchase(course.id, {
        email,
        buyer_key: mailboxKey(email),
        status: 'pending',
        completed_at: null,
        created_at: at,
      });
    await makePurchase(course.id, { email: buyer!.email, buyer_key: mailboxKey(buyer!.email), status: 'completed' });

    await run(new Date());
    await run(new Date());
    const reminders = await mailsTo(reader!.email, 'checkout-reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.subject).toBe('Your checkout for Your Emergency Fund is still open');
    expect(reminders[0]!.text).toContain(`/en/checkout/${course.id}`);
    expect(await mailsTo(buyer!.email, 'checkout-reminder')).toHaveLength(0);
    expect(await mailsTo(stranger, 'checkout-reminder')).toHaveLength(0);

    // A day and more later: too late for anyone.
    const [late] = await makeSubscribers(1, 'late', ['en']);
    await makePurchase(course.id, {
      email: late!.email,
      buyer_key: mailboxKey(late!.email),
      status: 'expired',
      completed_at: null,
      created_at: at,
    });
    await run(new Date(Date.now() + 23 * HOUR));
    expect(await mailsTo(late!.email, 'checkout-reminder')).toHaveLength(0);
  });

  it('ask a subscribed buyer who may review, in the words the seller wrote, and no one else', async () => {
    const settings = structuredClone(BUILT_IN_AUDIENCE_SETTINGS);
    settings.automatic['review-request'].enabled = true;
    settings.automatic['review-request'].texts.tr = { subject: '{{course}} hakkında ne düşünüyorsunuz?', body: '' };
    await saveAudienceSettings(settings);
    const course = await makeCourse({ title: 'Bütçe' });
    const [asked, reviewed, left] = await makeSubscribers(3, 'review', ['tr']);
    const notSubscribed = uniqueEmail('buyer');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * HOUR);
    const buyers = new Map<string, string>();
    for (const email of [asked!.email, reviewed!.email, left!.email, notSubscribed]) {
      const user = await db()
        .insertInto('users')
        .values({ email, email_verified: true, full_name: 'Okur' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const purchase = await makePurchase(course.id, {
        email,
        buyer_key: mailboxKey(email),
        user_id: user.id,
        language: 'tr',
        completed_at: eightDaysAgo,
      });
      buyers.set(email, purchase.id);
      if (email === reviewed!.email)
        await db()
          .insertInto('reviews')
          .values({ course_id: course.id, user_id: user.id, purchase_id: purchase.id, rating: 5 })
          .execute();
    }
    await unsubscribeByOneClick(left!.id);

    await run(new Date());
    await run(new Date());
    const requests = await mailsTo(asked!.email, 'review-request');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.subject).toBe('Bütçe hakkında ne düşünüyorsunuz?');
    expect(requests[0]!.text).toContain(`/tr/courses/${course.id}#reviews`);
    for (const email of [reviewed!.email, left!.email, notSubscribed])
      expect(await mailsTo(email, 'review-request')).toHaveLength(0);
  });
});
