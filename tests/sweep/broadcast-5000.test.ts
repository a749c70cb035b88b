import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, db, type Db } from '../../functions/db/database.ts';
import { changeBroadcast, createBroadcast, getBroadcast, sendBroadcast } from '../../functions/audience/broadcasts.ts';
import { BUILT_IN_AUDIENCE_SETTINGS, saveAudienceSettings } from '../../functions/audience/settings.ts';
import { smtpTransport } from '../../functions/mail/worker.ts';
import { shopJobs } from '../../functions/jobs/shop-jobs.ts';
import { startJobs } from '../../functions/jobs/runner.ts';
import { log } from '../../functions/log.ts';
import { okValue } from '../support/factories.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { broadcastDraft, makeSubscribers, unsubscribeByOneClick } from '../support/subscribers.ts';

/**
 * `npm run test:sweep` only: a broadcast to 5,000 subscribers through two instances (two job runners,
 * each with its own pool, on one database) and a real SMTP server, with the rate raised for the test:
 * every subscriber gets it once, 100 who unsubscribe during the send get it only if it left before they
 * did, and a pause stops the feeding until it is resumed. The representative case `npm test` runs is
 * tests/integration/mail/broadcasts.test.ts.
 */
vi.spyOn(log, 'info').mockImplementation(() => undefined);
const SUBSCRIBERS = 5000;
const LEAVING = 100;
const FROM = 'Shop <no-reply@shop.test>';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a broadcast to 5,000 subscribers through two instances (npm run test:sweep)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let other: Db;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    other = createDb(process.env.DATABASE_URL!, 5);
  });
  afterAll(async () => {
    await other.destroy();
    await smtp.stop();
  });

  it('delivers each mail once, honours unsubscribes during the send, and pauses and resumes', async () => {
    const subscribers = await makeSubscribers(SUBSCRIBERS, 'sweep', ['en']);
    // 6,000 a minute: 100 a run, one run a second (about 50 seconds of feeding).
    await saveAudienceSettings({ ...BUILT_IN_AUDIENCE_SETTINGS, ratePerMinute: 6000 });
    const { id } = okValue(await createBroadcast(broadcastDraft({ subject: 'Sweep' })));
    okValue(await sendBroadcast(id, undefined));

    // Pooled SMTP connections (nodemailer reads them from the URL, as it would from SMTP_URL).
    const transport = smtpTransport(`${smtp.url}?pool=true&maxConnections=3`, FROM);
    const settings = { transport, jobsIntervalMs: 200, blogIntervalMs: 60_000 };
    const instances = [startJobs(db(), shopJobs(settings)), startJobs(other, shopJobs(settings))];
    const leaving = subscribers.slice(2000, 2000 + LEAVING);
    try {
      // Once a thousand have been handed to the outbox.
      const handedOver = async () => {
        const { queued, sent, failed } = okValue(await getBroadcast(id)).counts;
        return queued + sent + failed;
      };
      await expect.poll(handedOver, { timeout: 120_000, interval: 200 }).toBeGreaterThanOrEqual(1000);
      expect(okValue(await getBroadcast(id)).status).toBe('sending');
      // Mid-send: 100 leave (some already mailed, most still waiting).
      for (const subscriber of leaving) await unsubscribeByOneClick(subscriber.id);

      expect(okValue(await changeBroadcast(id, 'pause')).status).toBe('paused');
      await sleep(1500);
      const paused = okValue(await getBroadcast(id)).counts;
      await sleep(2500);
      expect(okValue(await getBroadcast(id)).counts.waiting).toBe(paused.waiting);
      expect(paused.waiting).toBeGreaterThan(0);
      expect(okValue(await changeBroadcast(id, 'resume')).status).toBe('sending');

      await expect.poll(async () => okValue(await getBroadcast(id)).status, { timeout: 300_000, interval: 500 }).toBe('sent');
      await expect.poll(async () => okValue(await getBroadcast(id)).counts.queued, { timeout: 300_000, interval: 500 }).toBe(0);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }

    const times = new Map<string, number>();
    for (const message of smtp.messages) for (const to of message.to) times.set(to, (times.get(to) ?? 0) + 1);
    expect([...times.values()].every((count) => count === 1)).toBe(true);
    const left = await db()
      .selectFrom('subscribers')
      .leftJoin('mail_outbox', (join) =>
        join.onRef('mail_outbox.subscriber_id', '=', 'subscribers.id').on('mail_outbox.status', '=', 'sent'),
      )
      .select(['subscribers.email', 'subscribers.unsubscribed_at', 'mail_outbox.sent_at'])
      .where(
        'subscribers.id',
        'in',
        leaving.map((subscriber) => subscriber.id),
      )
      .execute();
    const mailedBefore = left.filter((row) => row.sent_at !== null);
    // Mailed only if it left before they did: its consent is checked as it is handed to SMTP, so at most
    // that one exchange (milliseconds; a second on a loaded machine) may end after the unsubscribe.
    for (const row of mailedBefore) expect(row.sent_at!.getTime() - row.unsubscribed_at!.getTime()).toBeLessThan(1000);
    const notMailed = left.filter((row) => row.sent_at === null).map((row) => row.email);
    expect(notMailed.length).toBeGreaterThan(0);
    for (const email of notMailed) expect(times.has(email)).toBe(false);
    expect(times.size).toBe(SUBSCRIBERS - notMailed.length);
    expect(okValue(await getBroadcast(id)).counts).toMatchObject({
      waiting: 0,
      queued: 0,
      sent: SUBSCRIBERS - notMailed.length,
      failed: 0,
      withdrawn: notMailed.length,
      unsubscribedAfter: mailedBefore.length,
    });
    console.log(
      `broadcast sweep: ${SUBSCRIBERS} subscribers, ${times.size} mailed once each, ${notMailed.length} left before their turn`,
    );
  }, 600_000);
});
