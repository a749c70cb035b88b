import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { Browser, startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * The developer tools (dev mailbox, e-mail previews, crash pages, demo payments) follow one rule
 * (functions/dev-tools.ts); here a shop started as an operator might start it by mistake.
 */
const DEV_TOOL_PAGES = ['/en/dev/mailbox', '/tr/dev/mailbox', '/en/dev/mail', '/en/dev/crash', '/api/dev/crash'];

async function courses(language: 'en' | 'tr' = 'en') {
  const pick = (free: boolean) =>
    db()
      .selectFrom('courses')
      .select('id')
      .where('price_minor', free ? '=' : '>', 0)
      .where('language', '=', language)
      .executeTakeFirstOrThrow();
  return { free: await pick(true), paid: await pick(false) };
}

async function expectToolsOff(server: TestServer) {
  for (const path of DEV_TOOL_PAGES) expect((await server.fetch(path)).status, path).toBe(404);
  expect((await server.fetch(`/en/checkout/demo/demo_${randomUUID()}`)).status).toBe(404);
  expect((await server.fetch(`/api/checkout/demo/demo_${randomUUID()}`, { method: 'POST' })).status).toBe(404);

  const { free, paid } = await courses();
  const buyer = new Browser(server);
  // No demo payments to fall back on: a paid course says so, and a paid checkout is refused, nothing given away.
  for (const [lang, text] of [
    ['en', 'Not available for purchase right now'],
    ['tr', 'Bu kurs şu anda satın alınamıyor'],
  ] as const) {
    const course = (await courses(lang)).paid;
    const coursePage = await (await server.fetch(`/${lang}/course/${course.id}`)).text();
    expect(coursePage).toContain(text);
    expect(coursePage).not.toContain(`data-buy-for="${course.id}"`);
  }
  const paidCheckout = await buyer.postJson('/api/checkout', {
    acceptTerms: true,
    waiveWithdrawal: true,
    courseId: paid.id,
    email: `paid-${randomUUID()}@example.com`,
    fullName: 'Buyer',
    language: 'en',
  });
  expect(paidCheckout.status).toBe(503);
  expect(((await paidCheckout.json()) as { error: { message: string } }).error.message).toBe('course.notForSaleNow');

  // No SMTP and no dev mailbox: the course mail waits in the outbox, never marked sent.
  const email = `free-${randomUUID()}@example.com`;
  expect(
    (
      await buyer.postJson('/api/checkout', {
        acceptTerms: true,
        waiveWithdrawal: true,
        courseId: free.id,
        email,
        fullName: 'Buyer',
        language: 'en',
      })
    ).status,
  ).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const mail = await db()
    .selectFrom('mail_outbox')
    .select(['status', 'attempts'])
    .where('recipient', '=', email)
    .executeTakeFirstOrThrow();
  expect(mail).toEqual({ status: 'pending', attempts: 0 });
}

describe('developer tools', () => {
  it('are off in development on a non-loopback interface with an external database, with a warning naming them', async () => {
    const server = await startTestServer({ NODE_ENV: 'development', HOST: '0.0.0.0', DEV_TOOLS: '' });
    try {
      expect(server.output!()).toMatch(/WARNING: development mode \(NODE_ENV=development\) listening on 0\.0\.0\.0/);
      expect(server.output!()).toMatch(/developer tools are off/);
      expect(server.output!()).toMatch(/mail: queued, not sent \(set SMTP_URL\)/);
      await expectToolsOff(server);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('turned on there explicitly, answer, and the warning names every one of them', async () => {
    const server = await startTestServer({ NODE_ENV: 'development', HOST: '0.0.0.0', DEV_TOOLS: 'on' });
    try {
      expect(server.output!()).toMatch(/developer tools are ON and reachable by anyone/);
      for (const path of ['/en/dev/mailbox', '/api/dev/crash', '/en/checkout/demo/…']) expect(server.output!()).toContain(path);
      expect((await server.fetch('/en/dev/mailbox')).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('are off in production unless the test harness turns them on', async () => {
    const server = await startTestServer({ NODE_ENV: 'production', DEV_TOOLS: '', PRODUCTION_CHECKS: 'test-harness' });
    try {
      expect(server.output!()).not.toMatch(/WARNING/);
      expect(server.output!()).toMatch(/PRODUCTION_CHECKS=test-harness: production safety checks are OFF/);
      expect(server.output!()).toMatch(/! SMTP_URL is not set: e-mails wait in the outbox/);
      await expectToolsOff(server);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
