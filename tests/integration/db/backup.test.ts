import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { db, createDb } from '../../../functions/db/database.ts';
import { backupDatabase, restoreDatabase, tableChecksum } from '../../../functions/db/backup.ts';
import { withDatabase } from '../../../functions/db/provision.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { createBlogPost } from '../../../functions/blog/admin.ts';
import { seedDemoData } from '../../../functions/seed/seed.ts';
import { makePurchase } from '../../support/factories.ts';

const folder = await mkdtemp(path.join(tmpdir(), 'backup-drill-'));
const restoredName = `restore_drill_${process.pid}`;
const serverUrl = inject('postgresServerUrl');
const admin = createDb(serverUrl, 1);
afterAll(async () => {
  await sql`DROP DATABASE IF EXISTS ${sql.id(restoredName)} WITH (FORCE)`.execute(admin);
  await admin.destroy();
  await rm(folder, { recursive: true, force: true });
});

describe('backup and restore drill', () => {
  it('restores users, purchases, courses and posts into a fresh database, identical row for row', async () => {
    await seedDemoData(db());
    const buyer = await ensureUser(db(), {
      email: 'drill@example.com',
      password: 'drill password 1',
      fullName: 'Drill Şahin',
      role: 'user',
      language: 'tr',
    });
    const courses = await db().selectFrom('courses').select('id').limit(3).execute();
    for (const course of courses) await makePurchase(course.id, { user_id: buyer.id, email: 'drill@example.com' });
    await createBlogPost({
      slug: 'yedek-testi',
      language: 'tr',
      title: 'Yedek: İlk Test',
      excerpt: 'Özet',
      content: 'İçerik **kalın**',
      author: 'Ayşe',
      cover: '/images/blog/weekly-review.svg',
      coverAlt: 'Bir haftalık plan defteri',
      tags: ['yedek', 'ışık'],
      published: true,
    });

    const file = path.join(folder, 'drill.jsonl.gz');
    const written = await backupDatabase(db(), file);
    expect(written.purchases).toBe(3);

    await sql`CREATE DATABASE ${sql.id(restoredName)}`.execute(admin);
    const restored = createDb(withDatabase(serverUrl, restoredName), 2);
    try {
      const loaded = await restoreDatabase(restored, file);
      expect(loaded.courses).toBe(written.courses);
      const report = [];
      const tables = [
        'users',
        'accounts',
        'purchases',
        'courses',
        'categories',
        'blog_posts',
        'mail_outbox',
        'course_price_changes',
      ];
      for (const table of tables) {
        const [original, copy] = [await tableChecksum(db(), table), await tableChecksum(restored, table)];
        report.push({ table, rows: original.rows, restoredRows: copy.rows, checksumsMatch: original.checksum === copy.checksum });
        expect(copy, table).toEqual(original);
      }
      console.table(report);
      // The restored shop works: generated search columns were rebuilt and constraints hold.
      const found = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM courses WHERE search_text LIKE '%' || fold_search('BÜTÇE') || '%'`.execute(restored);
      expect(found.rows[0]!.n).toBeGreaterThan(0);
      // Numbered rows go on after the restored ones: a price change records its history without a clash.
      const before = await tableChecksum(restored, 'course_price_changes');
      await restored.updateTable('courses').set({ price_minor: 4321 }).where('id', '=', courses[0]!.id).execute();
      expect((await tableChecksum(restored, 'course_price_changes')).rows).toBe(before.rows + 1);
      await expect(restoreDatabase(restored, file)).rejects.toThrow(/without data/);
    } finally {
      await restored.destroy();
    }
  });
});
