import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { enrolTwoFactor } from '../../support/two-factor.ts';
import { Browser, startTestServer } from '../../support/test-server.ts';
import { plainText, startSmtpServer } from '../../support/smtp.ts';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { makeCourse } from '../../support/factories.ts';

/**
 * A seller's first production start without SMTP: nothing is lost and nothing is marked sent; the
 * admin sees what waits; once SMTP is set and the shop restarts, the buyer gets the original mail,
 * with the public address and links whose time starts when the mail leaves.
 */
const PUBLIC = 'https://shop.example';
const PRODUCTION = { NODE_ENV: 'production', PRODUCTION_CHECKS: 'test-harness', DEV_TOOLS: '', PUBLIC_SITE_URL: PUBLIC };
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.stop());

const outboxRow = (recipient: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['status', 'attempts', 'delivered_via'])
    .where('recipient', '=', recipient)
    .executeTakeFirstOrThrow();

describe('mail with nothing to send it', () => {
  it('waits, is shown to the admin, and leaves with fresh links once SMTP is set', async () => {
    const buyer = `held-${randomUUID().slice(0, 8)}@example.com`;
    const owner = `reset-${randomUUID().slice(0, 8)}@example.com`;
    await ensureUser(db(), { email: owner, password: 'owner password 1', fullName: 'Owner', role: 'user' });
    // A production shop has no demo catalogue: the seller's own free course.
    const course = await makeCourse({ price_minor: 0, currency: 'TRY', language: 'tr', title: 'Bütçe 20 dakikada' });

    // Started without TRUST_PROXY while requests carry X-Forwarded-For: the overview says so too.
    const first = await startTestServer({ ...PRODUCTION, TRUST_PROXY: 'false' });
    try {
      expect(first.output!()).toMatch(/mail: queued, not sent \(set SMTP_URL\)/);
      const visitor = new Browser(first);
      expect(
        (
          await visitor.postJson('/api/checkout', {
            acceptTerms: true,
            waiveWithdrawal: true,
            courseId: course.id,
            email: buyer,
            fullName: 'Ayşe Yılmaz',
            language: 'tr',
          })
        ).status,
      ).toBe(200);
      expect((await new Browser(first).postJson('/api/auth/request-password-reset', { email: owner })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await outboxRow(buyer)).toEqual({ status: 'pending', attempts: 0, delivered_via: null });
      expect(await outboxRow(owner)).toEqual({ status: 'pending', attempts: 0, delivered_via: null });

      // better-auth trusts the public origin only, as a browser on https://shop.example would send it.
      const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
      await ensureUser(db(), { email: adminEmail, password: 'admin password 1', fullName: 'Admin', role: 'admin' });
      const admin = new Browser(first);
      const signIn = await admin.postJson(
        '/api/auth/sign-in/email',
        { email: adminEmail, password: 'admin password 1' },
        { origin: PUBLIC },
      );
      expect(signIn.status).toBe(200);
      // Without the developer tools, the admin area asks for two-factor first.
      await enrolTwoFactor(admin, 'admin password 1', { origin: PUBLIC });
      const overview = await (await admin.request('/tr/admin', { headers: { Accept: 'text/html' } })).text();
      expect(overview).toMatch(/\d+ e-posta bekliyor: e-posta gönderimi ayarlı değil/);
      expect(overview).toContain('İstekler X-Forwarded-For başlığıyla geliyor ama TRUST_PROXY kapalı');
      expect(overview).toContain('Mağaza durumu');
    } finally {
      await first.stop();
    }
    // The links are minted when the mail leaves: a day in the outbox changes nothing.
    await db()
      .updateTable('mail_outbox')
      .set({ created_at: new Date(Date.now() - 86_400_000) })
      .where('recipient', 'in', [buyer, owner])
      .execute();

    const second = await startTestServer({ ...PRODUCTION, SMTP_URL: smtp.url });
    try {
      const course = plainText((await smtp.waitFor((mail) => mail.to.includes(buyer))).raw);
      expect(course).toContain(`${PUBLIC}/api/downloads/`);
      const signIn = new URL(course.match(/https:\/\/shop\.example\/api\/auth\/magic-link\/verify\?\S+/)![0]);
      expect(signIn.searchParams.get('token')).toMatch(/^[\w-]{20,}$/);

      const reset = plainText((await smtp.waitFor((mail) => mail.to.includes(owner))).raw);
      const token = new URL(
        reset.match(/https:\/\/shop\.example\/tr\/reset-password\?\S+|https:\/\/shop\.example\/en\/reset-password\?\S+/)![0],
      ).searchParams.get('token')!;
      const stored = await db()
        .selectFrom('verifications')
        .select('expires_at')
        .where('identifier', '=', `reset-password:${token}`)
        .executeTakeFirstOrThrow();
      expect(stored.expires_at.getTime() - Date.now()).toBeGreaterThan(55 * 60 * 1000);
      // The reset link works on the shop.
      expect((await second.fetch(`/en/reset-password?token=${encodeURIComponent(token)}`)).status).toBe(200);
      expect(await outboxRow(buyer)).toMatchObject({ status: 'sent', delivered_via: 'smtp' });
    } finally {
      await second.stop();
    }
  }, 90_000);

  it('is never marked sent when the SMTP server refuses it', async () => {
    const closed = await findFreePort();
    const server = await startTestServer({ ...PRODUCTION, SMTP_URL: `smtp://127.0.0.1:${closed}` });
    const email = `refused-${randomUUID().slice(0, 8)}@example.com`;
    try {
      await ensureUser(db(), { email, password: 'owner password 1', fullName: 'Owner', role: 'user' });
      expect((await new Browser(server).postJson('/api/auth/request-password-reset', { email })).status).toBe(200);
      await expect.poll(async () => (await outboxRow(email)).attempts, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await outboxRow(email)).toMatchObject({ status: 'pending', delivered_via: null });
    } finally {
      await server.stop();
    }
  }, 60_000);
});
