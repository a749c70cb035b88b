import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { queueMail } from '../../../functions/mail/outbox.ts';
import { runPeriodicJob } from '../../../functions/jobs/periodic.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { startSmtpServer } from '../../support/smtp.ts';
import { startFakeStripe } from '../../support/fake-stripe.ts';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { runScript } from '../../support/run-script.ts';

/** `npm run doctor` as a seller runs it, against this file's PostgreSQL and a running shop. */
const SECRET = 'test-secret-test-secret-test-secret-42';
let shop: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  stripe = await startFakeStripe();
  shop = await startTestServer();
});
afterAll(async () => {
  await shop.stop();
  await stripe.stop();
  await smtp.stop();
});

const doctor = (env: Record<string, string>) =>
  runScript('functions/cli/doctor.ts', [], {
    ENV_FILE: '',
    NODE_ENV: 'development',
    BETTER_AUTH_SECRET: SECRET,
    PUBLIC_SITE_URL: shop.url,
    ...env,
  });

describe('npm run doctor', () => {
  it('passes in development with what is not configured marked "–", and checks the shop it reaches', async () => {
    const { code, output } = await doctor({});
    expect(output, output).toMatch(/✓ Database: Reachable; \d+ migrations applied/);
    expect(output).toMatch(/– E-mail \(SMTP\): SMTP_URL is not set/);
    expect(output).toMatch(/✓ Outgoing mail: Nothing failing or waiting longer than 15 minutes/);
    expect(output).toMatch(/✓ Background jobs: None failing/);
    expect(output).toMatch(/– Payments \(Stripe\): STRIPE_SECRET_KEY is not set/);
    expect(output).toMatch(/✓ File storage: Writable; public files are served and private files are not/);
    expect(output).toMatch(new RegExp(`✓ Public address: ${shop.url} serves this shop`));
    expect(output).toMatch(/✓ Session secret/);
    expect(output).toMatch(/✓ Shop details: MicroCourses: every detail buyers see is filled in/);
    expect(output).toContain('Ready.');
    expect(code).toBe(0);
  }, 60_000);

  it('fails on mail the mail server keeps refusing (never dropped, so it must be seen)', async () => {
    const id = await queueMail(db(), {
      to: 'held@example.com',
      subject: 'Held',
      html: '<p>Held</p>',
      text: 'Held',
      language: 'en',
      kind: 'test',
    });
    await db()
      .updateTable('mail_outbox')
      .set({
        attempts: 26,
        last_error: '421 Service not available',
        created_at: new Date('2026-01-02T03:04:00Z'),
        next_attempt_at: new Date(Date.now() + 3_600_000),
      })
      .where('id', '=', id)
      .execute();
    const failing = await doctor({});
    expect(failing.output, failing.output).toMatch(
      /✗ Outgoing mail: 1 e-mails not sent, the oldest queued 2026-01-02 03:04 UTC; last refusal: 421 Service not available/,
    );
    expect(failing.code).toBe(1);
    await db().updateTable('mail_outbox').set({ status: 'sent' }).where('id', '=', id).execute();
  }, 60_000);

  it('fails on a background job failing on any instance, naming it as its log lines do', async () => {
    const run = (work: () => Promise<number>) => runPeriodicJob(db(), 'usage-limit-pruning', 0, work);
    await expect(run(() => Promise.reject(new Error('canceling statement due to lock timeout')))).rejects.toThrow();
    const failing = await doctor({});
    expect(failing.output, failing.output).toMatch(
      /✗ Background jobs: Failing, each with when it began: usage-limit-pruning \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): canceling statement due to lock timeout/,
    );
    expect(failing.code).toBe(1);
    await run(() => Promise.resolve(0));
  }, 60_000);

  it('before the first start (a database with no tables) says what is to do, and fails nothing in development', async () => {
    const name = `doctor_fresh_${Date.now()}`;
    await sql`CREATE DATABASE ${sql.raw(name)}`.execute(db());
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const { code, output } = await doctor({ DATABASE_URL: url.href });
    expect(output, output).toMatch(/– Database: Reachable; \d+ migrations to apply/);
    expect(output).toMatch(/– Shop details: Details still to fill in: 6 \(Admin → Settings\)/);
    expect(code).toBe(0);
  }, 60_000);

  it('logs in to a real SMTP server, and says when one refuses', async () => {
    expect((await doctor({ SMTP_URL: smtp.url })).output).toMatch(/✓ E-mail \(SMTP\): 127\.0\.0\.1:\d+ accepts the login/);
    const closed = await findFreePort();
    const refused = await doctor({ SMTP_URL: `smtp://127.0.0.1:${closed}` });
    expect(refused.output).toMatch(new RegExp(`✗ E-mail \\(SMTP\\): 127\\.0\\.0\\.1:${closed} refused`));
    expect(refused.code).toBe(1);
  }, 60_000);

  it('finds the webhook endpoint for the site in Stripe, or says to add it (fake Stripe API)', async () => {
    const stripeEnv = stripe.settings;
    const missing = await doctor(stripeEnv);
    expect(missing.output).toMatch(/✗ Payments \(Stripe\): test mode; no webhook endpoint for .*\/api\/stripe\/webhook/);
    expect(missing.code).toBe(1);
    stripe.webhookEndpoints.push({
      id: 'we_1',
      object: 'webhook_endpoint',
      url: `${shop.url}/api/stripe/webhook`,
      status: 'enabled',
    });
    expect((await doctor(stripeEnv)).output).toMatch(/✓ Payments \(Stripe\): test mode; the key works and the webhook endpoint/);
  }, 60_000);

  it('tells another server, or another secret, from this shop', async () => {
    expect((await doctor({ PUBLIC_SITE_URL: stripe.url })).output).toMatch(/✗ Public address: .* answers, but not as this shop/);
    expect((await doctor({ BETTER_AUTH_SECRET: 'another-secret-another-secret-123456' })).output).toMatch(/not as this shop/);
  }, 60_000);

  it('in production, anything not configured fails (exit 1)', async () => {
    const { code, output } = await doctor({ NODE_ENV: 'production' });
    expect(output).toMatch(/✗ E-mail \(SMTP\)/);
    expect(output).toMatch(/✗ Public address: .* is not https/);
    expect(output).toContain('Not ready');
    expect(code).toBe(1);
  }, 60_000);
});
