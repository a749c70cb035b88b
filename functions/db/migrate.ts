import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from './database.ts';

// From the project folder the shop runs in: inside the server bundle, import.meta.url points into dist/.
const MIGRATIONS_DIR = path.resolve('functions/db/migrations');
// Any constant shared by every instance of the shop: it names the advisory lock.
const MIGRATION_LOCK_KEY = 724_311_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** A migration that was changed after it ran: the database no longer matches what the code says it is. */
export class EditedMigrationError extends Error {
  override name = 'EditedMigrationError';
}

export function checksumOf(migration: Pick<Migration, 'sql'>): string {
  return createHash('sha256').update(migration.sql.replace(/\r\n/g, '\n')).digest('hex');
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: path.basename(file, '.sql'),
      sql: await readFile(path.join(dir, file), 'utf8'),
    })),
  );
}

/**
 * Applies pending migrations, each in its own transaction. Every transaction takes a
 * transaction-level advisory lock first, so a second instance starting at the same moment waits,
 * then finds nothing to do; a lock held by the transaction alone also works through a
 * transaction-mode pooler (a session lock could be taken on one server connection and released on
 * another). An applied migration whose file changed since is refused: fix forward with a new migration.
 */
export async function migrate(database: Db, migrations?: Migration[]): Promise<string[]> {
  const pending = migrations ?? (await readMigrations());
  const done = await database.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`.execute(trx);
    // Databases migrated before checksums were kept get each file's current one on first sight.
    await sql`ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text`.execute(trx);
    const rows = await trx.selectFrom('schema_migrations').select(['version', 'name', 'checksum']).execute();
    for (const row of rows) {
      const file = pending.find((migration) => migration.version === row.version);
      if (!file) continue;
      if (row.checksum === null) {
        await trx
          .updateTable('schema_migrations')
          .set({ checksum: checksumOf(file) })
          .where('version', '=', row.version)
          .execute();
      } else if (row.checksum !== checksumOf(file)) {
        throw new EditedMigrationError(
          `migration ${file.name} was edited after it was applied to this database: restore the file as it was (git) and put the change in a new migration.`,
        );
      }
    }
    return new Set(rows.map((row) => row.version));
  });
  const applied: string[] = [];
  for (const migration of pending) {
    if (done.has(migration.version)) continue;
    const ran = await database.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
      const already = await trx
        .selectFrom('schema_migrations')
        .select('version')
        .where('version', '=', migration.version)
        .executeTakeFirst();
      if (already) return false;
      await sql.raw(migration.sql).execute(trx);
      await trx
        .insertInto('schema_migrations')
        .values({ version: migration.version, name: migration.name, checksum: checksumOf(migration) })
        .execute();
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
