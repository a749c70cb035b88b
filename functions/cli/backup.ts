import '../load-env-file.ts';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { backupDatabase, restoreDatabase } from '../db/backup.ts';
import { runWithDatabase } from './with-database.ts';

/**
 * `npm run db:backup [-- --out file]` and `npm run db:restore -- --in file [--force]`, against
 * DATABASE_URL or the embedded server. Stored files (covers, PDFs) live in DATA_DIR/storage or the
 * configured bucket: back those up with the storage's own tools.
 */
const [command] = process.argv.slice(2);
const { values } = parseArgs({
  args: process.argv.slice(3),
  options: { out: { type: 'string' }, in: { type: 'string' }, force: { type: 'boolean', default: false } },
});
if (command !== 'backup' && command !== 'restore') {
  console.error('Usage: node functions/cli/backup.ts backup [--out file] | restore --in file [--force]');
  process.exit(2);
}

await runWithDatabase(command === 'backup' ? 'back up the database' : 'restore the database', async (database) => {
  if (command === 'backup') {
    const file = path.resolve(values.out ?? `backups/shop-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl.gz`);
    await mkdir(path.dirname(file), { recursive: true });
    const counts = await backupDatabase(database, file);
    console.log(`Backup written to ${file}`);
    console.table(counts);
  } else {
    if (!values.in) throw new Error('--in <backup file> is required');
    if (values.force) await sql`DROP SCHEMA public CASCADE; CREATE SCHEMA public`.execute(database);
    const counts = await restoreDatabase(database, path.resolve(values.in));
    console.log('Restored:');
    console.table(counts);
  }
});
