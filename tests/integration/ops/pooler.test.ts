import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../functions/db/database.ts';
import { migrate, readMigrations } from '../../../functions/db/migrate.ts';
import { announceChange, followChanges, PURGE_POLL_MS, type ChangeFeed } from '../../../functions/http/cache-notify.ts';
import { pgBouncerMissing, startPgBouncer, type PgBouncer } from '../../support/pgbouncer.ts';

/**
 * The database reached through a real PgBouncer 1.18 in transaction mode (Debian's package), as
 * Supabase's Supavisor, Neon's pooler or a seller's own PgBouncer serve it: LISTEN does not work, and
 * no session state survives a transaction. These are the representative cases, in process; `npm run
 * test:sweep` also runs shop instances through it (tests/sweep/pooler-instances.test.ts).
 */
const missing = pgBouncerMissing();
if (missing) console.log(`pooler tests skipped: ${missing}`);

let bouncer: PgBouncer;
const databaseName = () => new URL(process.env.DATABASE_URL!).pathname.slice(1);

describe.skipIf(missing)('through PgBouncer in transaction mode', () => {
  beforeAll(async () => {
    bouncer = await startPgBouncer(inject('postgresServerUrl'));
  });
  afterAll(() => bouncer?.stop());

  it('three migration runs at once on a new database apply each migration once', async () => {
    const admin = createDb(inject('postgresServerUrl'), 1);
    const name = `shop_pooled_${process.pid}`;
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin);
    await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin);
    const runs = [0, 1, 2].map(() => createDb(bouncer.url(name), 2));
    try {
      const applied = await Promise.all(runs.map((run) => migrate(run)));
      const files = await readMigrations();
      expect(applied.flat().sort()).toEqual(files.map((file) => file.name).sort());
      const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`.execute(runs[0]!);
      expect(rows.rows[0]!.n).toBe(files.length);
      expect(await migrate(runs[1]!)).toEqual([]);
    } finally {
      await Promise.all(runs.map((run) => run.destroy()));
      await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin);
      await admin.destroy();
    }
  });

  it(`finds that the pooler delivers no notifications and polls: a purge reaches it within ${PURGE_POLL_MS} ms and a moment`, async () => {
    const pooled = bouncer.url(databaseName());
    const heard: string[] = [];
    const feeds: ChangeFeed[] = [];
    const writer = createDb(pooled, 2);
    try {
      const polled = await followChanges({ url: pooled, listenUrl: pooled }, (tag) => heard.push(`polled:${tag}`));
      feeds.push(polled);
      expect(polled.how).toMatch(/^polled every 1 s .*DATABASE_DIRECT_URL/);
      // Nor does it keep a session: statements are not named through it (db/named-statements.ts).
      expect(polled.sessions).toBe(false);
      const listened = await followChanges({ url: pooled, listenUrl: process.env.DATABASE_URL! }, (tag) =>
        heard.push(`listened:${tag}`),
      );
      feeds.push(listened);
      expect(listened).toMatchObject({ how: 'at once (LISTEN on DATABASE_DIRECT_URL)', sessions: false });

      const announcedAt = performance.now();
      await writer.transaction().execute((trx) => announceChange(trx, 'pooled-change'));
      await writer
        .transaction()
        .execute(async (trx) => {
          await announceChange(trx, 'rolled-back');
          throw new Error('roll back');
        })
        .catch(() => {});
      while (!heard.includes('polled:pooled-change') && performance.now() - announcedAt < PURGE_POLL_MS + 1500)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard).toContain('listened:pooled-change');
      expect(heard).toContain('polled:pooled-change');
      await new Promise((resolve) => setTimeout(resolve, PURGE_POLL_MS + 200));
      expect(heard.filter((tag) => tag.endsWith(':pooled-change'))).toHaveLength(2);
      expect(heard.some((tag) => tag.endsWith('rolled-back'))).toBe(false);
    } finally {
      await Promise.all(feeds.map((feed) => feed.stop()));
      await writer.destroy();
    }
  });
});
