import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, db } from '../../functions/db/database.ts';
import { readMigrations } from '../../functions/db/migrate.ts';
import { withDatabase } from '../../functions/db/provision.ts';
import { funnelRows } from '../../functions/funnel/report.ts';
import { queueMail } from '../../functions/mail/outbox.ts';
import { startSmtpServer } from './smtp.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from './test-server.ts';

export interface InstanceSetting {
  /** The DATABASE_URL (and any other variable) an instance of this file's database starts with. */
  settings: () => Record<string, string>;
  /** The same for a new database of that name. */
  settingsFor: (database: string) => Record<string, string>;
  /** How soon another instance must have dropped a changed page. */
  purgeWithinMs: number;
}

/**
 * The shop grows past one machine as several stateless instances on one PostgreSQL. What one instance
 * does, the others must see: cache purges, the mail queue, rate limits, migrations. Run directly on the
 * database (instances.test.ts) and through a transaction pooler (pooler.test.ts).
 */
export function describeInstances(label: string, setting: InstanceSetting): void {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let first: TestServer;
  let second: TestServer;

  describe(`two instances on one database, ${label}`, () => {
    beforeAll(async () => {
      smtp = await startSmtpServer();
      const settings = { SMTP_URL: smtp.url, AUTH_RATE_LIMIT: 'on', ...setting.settings() };
      [first, second] = await Promise.all([startTestServer(settings), startTestServer(settings)]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([first?.stop(), second?.stop()]);
      await smtp?.stop();
    });

    it(`drop a page from the other instance's cache within ${setting.purgeWithinMs} ms of an admin's change`, async () => {
      const course = await db()
        .selectFrom('courses')
        .select(['id', 'title'])
        .where('is_active', '=', true)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      const page = () => second.fetch('/en/courses').then((response) => response.text());
      expect(await page()).toContain(course.title);
      expect(await page()).toContain(course.title); // now served from the second instance's memory

      const admin = await signedInBrowser(first, { role: 'admin' });
      const changedAt = performance.now();
      expect(
        (
          await admin.request(`/api/admin/courses/${course.id}/status`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ isActive: false }),
          })
        ).status,
      ).toBe(200);
      let gone = false;
      while (!gone && performance.now() - changedAt < setting.purgeWithinMs) gone = !(await page()).includes(course.title);
      const elapsedMs = performance.now() - changedAt;
      expect(gone, `still cached after ${Math.round(elapsedMs)} ms`).toBe(true);
      expect(elapsedMs).toBeLessThan(setting.purgeWithinMs);
    });

    it(`use an admin's new legal wording on the other instance within ${setting.purgeWithinMs} ms, though each keeps the settings in memory`, async () => {
      const page = () => second.fetch('/en/terms').then((response) => response.text());
      const wording = `Terms for the instances test ${randomUUID()}`;
      expect(await page()).not.toContain(wording);
      expect(await page()).not.toContain(wording); // the page and the legal text now from the second instance's memory

      const admin = await signedInBrowser(first, { role: 'admin' });
      const path = '/api/admin/legal-texts/en/terms';
      const changedAt = performance.now();
      const saved = await admin.request(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ body: wording }),
      });
      expect(saved.status).toBe(200);
      try {
        let shown = false;
        while (!shown && performance.now() - changedAt < setting.purgeWithinMs) shown = (await page()).includes(wording);
        const elapsedMs = performance.now() - changedAt;
        expect(shown, `the old wording after ${Math.round(elapsedMs)} ms`).toBe(true);
        expect(elapsedMs).toBeLessThan(setting.purgeWithinMs);
      } finally {
        expect((await admin.request(path, { method: 'DELETE' })).status).toBe(200);
      }
    });

    it('deliver each queued e-mail exactly once while both mail workers run', async () => {
      const recipients = Array.from({ length: 60 }, (_, n) => `instances-${n}@example.com`);
      for (const to of recipients)
        await queueMail(db(), { to, subject: 'Two workers', html: '<p>Once</p>', text: 'Once', language: 'en', kind: 'test' });
      const deadline = Date.now() + 20_000;
      const received = () => smtp.messages.flatMap((mail) => mail.to).filter((to) => to.startsWith('instances-'));
      while (received().length < recipients.length && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise((resolve) => setTimeout(resolve, 1500)); // room for a second copy to show up
      expect(received().sort()).toEqual([...recipients].sort());
      const sent = await db()
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('recipient', 'like', 'instances-%')
        .where('status', '=', 'sent')
        .executeTakeFirstOrThrow();
      expect(Number(sent.n)).toBe(recipients.length);
    });

    it('share sign-in rate limits: a client alternating between them gets no more attempts', async () => {
      const address = '203.0.113.77';
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 14; attempt++) {
        const browser = new Browser(attempt % 2 === 0 ? first : second, address);
        const response = await browser.postJson('/api/auth/sign-in/email', {
          email: `nobody-${attempt}@example.com`,
          password: 'wrong password 1',
        });
        statuses.push(response.status);
      }
      // better-auth's limit for sign-in is 10 a minute per client address, counted in the database.
      expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    });

    it("add up the course page views each counted: the funnel's figures are the shop's, not one instance's", async () => {
      const course = await db()
        .selectFrom('courses')
        .select('id')
        .where('is_active', '=', true)
        .orderBy('created_at', 'asc')
        .executeTakeFirstOrThrow();
      const person = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/153.0 Safari/537.36', accept: 'text/html' };
      const path = `/en/course/${course.id}?utm_source=instances`;
      // Both instances serve it from their page cache after the first view, and still count every view.
      for (let view = 0; view < 6; view++)
        expect((await (view % 2 === 0 ? first : second).fetch(path, { headers: person })).status).toBe(200);
      const counted = async () =>
        (await funnelRows('1month'))
          .filter((row) => row.courseId === course.id && row.utmSource === 'instances')
          .reduce((sum, row) => sum + row.views, 0);
      // Each instance adds its counts every JOBS_INTERVAL_MS.
      const deadline = Date.now() + 15_000;
      while ((await counted()) < 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await counted()).toBe(6);
    });
  });

  describe(`instances starting at the same moment on a new database, ${label}`, () => {
    it('apply each migration once, seed once, and all serve', async () => {
      const serverUrl = inject('postgresServerUrl');
      const name = `shop_instances_${process.pid}`;
      const admin = createDb(serverUrl, 1);
      await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin);
      await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin);
      const servers = await Promise.all([0, 1, 2].map(() => startTestServer(setting.settingsFor(name))));
      try {
        for (const server of servers) expect((await server.fetch('/api/health')).status).toBe(200);
        const fresh = createDb(withDatabase(serverUrl, name), 1);
        const migrations = await sql<{
          version: number;
          n: number;
        }>`SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version`.execute(fresh);
        expect(migrations.rows.map((row) => row.version)).toEqual((await readMigrations()).map((migration) => migration.version));
        expect(migrations.rows.every((row) => row.n === 1)).toBe(true);
        const courses = await sql<{
          n: number;
          distinct: number;
        }>`SELECT count(*)::int AS n, count(DISTINCT title)::int AS distinct FROM courses`.execute(fresh);
        expect(courses.rows[0]!.n).toBeGreaterThan(0);
        expect(courses.rows[0]!.n).toBe(courses.rows[0]!.distinct);
        await fresh.destroy();
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
        await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin);
        await admin.destroy();
      }
    }, 120_000);
  });
}
