import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { backupDatabase } from '../../functions/db/backup.ts';
import { createDb } from '../../functions/db/database.ts';
import { startEmbeddedPostgres } from '../../functions/db/embedded.ts';
import { migrate } from '../../functions/db/migrate.ts';
import { withDatabase } from '../../functions/db/provision.ts';

/**
 * Part of `npm run bench`: a backup of a table with 1,000,000 rows. Each page is read from a cursor,
 * so the last pages cost what the first ones do (OFFSET paging grew with every page).
 */
const ROWS = Number(process.env.BACKUP_BENCH_ROWS ?? 1_000_000);
const server = await startEmbeddedPostgres({ dataDir: '.data/bench-backup' });
const admin = createDb(server.url, 1);
await sql`DROP DATABASE IF EXISTS shop_backup_bench WITH (FORCE)`.execute(admin);
await sql`CREATE DATABASE shop_backup_bench`.execute(admin);
const database = createDb(withDatabase(server.url, 'shop_backup_bench'), 2);
const file = path.join(tmpdir(), `backup-bench-${process.pid}.jsonl.gz`);
try {
  await migrate(database);
  await sql`
    INSERT INTO contact_messages (name, email, subject, message, language)
    SELECT 'Reader ' || n, 'reader' || n || '@example.com', 'Question number ' || n, 'A message long enough to be real, number ' || n, 'en'
    FROM generate_series(1, ${ROWS}) AS n`.execute(database);
  const pages: number[] = [];
  const startedAt = performance.now();
  const counts = await backupDatabase(database, file, (table, _rows, ms) => table === 'contact_messages' && pages.push(ms));
  const seconds = (performance.now() - startedAt) / 1000;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const tenth = Math.max(1, Math.floor(pages.length / 10));
  console.log(`\nBackup of ${ROWS.toLocaleString('en')} contact messages (pages of 1,000 rows from a cursor):`);
  console.table([
    {
      rows: counts.contact_messages,
      pages: pages.length,
      'first 10% of pages, median ms': median(pages.slice(0, tenth)).toFixed(2),
      'last 10% of pages, median ms': median(pages.slice(-tenth)).toFixed(2),
      'total s': seconds.toFixed(1),
    },
  ]);
} finally {
  await rm(file, { force: true });
  await database.destroy();
  await admin.destroy();
  await server.stop();
}
