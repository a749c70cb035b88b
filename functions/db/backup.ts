import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { migrate, readMigrations } from './migrate.ts';

/**
 * A logical backup that works against any PostgreSQL (the embedded one ships no pg_dump, and a
 * client older than the server refuses to dump it): every table of the public schema read in one
 * REPEATABLE READ snapshot, written as gzipped JSON lines. Restore migrates an empty database to the
 * backup's schema version and loads the tables parents first.
 */
export const BACKUP_FORMAT = 'microcourses-backup';
const BATCH_ROWS = 1000;

interface Header {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  migrations: number[];
}

type Line = Header | { table: string } | { row: Record<string, unknown> };

/** `onBatch` hears how long each page took to read (the bench uses it). */
export async function backupDatabase(
  database: Db,
  file: string,
  onBatch?: (table: string, rows: number, ms: number) => void,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await database
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const migrations = (await trx.selectFrom('schema_migrations').select('version').orderBy('version').execute()).map(
        (row) => row.version,
      );
      const tables = await tablesInDependencyOrder(trx);
      async function* lines(): AsyncGenerator<string> {
        yield `${JSON.stringify({ format: BACKUP_FORMAT, version: 1, createdAt: new Date().toISOString(), migrations } satisfies Header)}\n`;
        for (const table of tables) {
          yield `${JSON.stringify({ table })}\n`;
          counts[table] = 0;
          // A cursor reads each page where the last one stopped: constant time per page, any table size.
          await sql`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT to_jsonb(t) AS row FROM ${sql.table(table)} t`.execute(trx);
          for (;;) {
            const startedAt = performance.now();
            const { rows } = await sql<{
              row: Record<string, unknown>;
            }>`FETCH ${sql.raw(String(BATCH_ROWS))} FROM backup_rows`.execute(trx);
            onBatch?.(table, rows.length, performance.now() - startedAt);
            for (const { row } of rows) yield `${JSON.stringify({ row })}\n`;
            counts[table] += rows.length;
            if (rows.length < BATCH_ROWS) break;
          }
          await sql`CLOSE backup_rows`.execute(trx);
        }
      }
      await pipeline(Readable.from(lines()), createGzip(), createWriteStream(file));
    });
  return counts;
}

/** Restores into a database holding no data: migrations first, then every table, parents first, in one transaction. */
export async function restoreDatabase(database: Db, file: string): Promise<Record<string, number>> {
  const lines = () => createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let header: Header | undefined;
  for await (const text of lines()) {
    header = JSON.parse(text) as Header;
    break;
  }
  if (header?.format !== BACKUP_FORMAT) throw new Error('Not a MicroCourses backup file');
  const known = (await readMigrations()).filter((migration) => header.migrations.includes(migration.version));
  if (known.length !== header.migrations.length)
    throw new Error('The backup comes from a newer version of the shop: update the shop first');
  await migrate(database, known);
  await ensureNoData(database);

  const counts: Record<string, number> = {};
  await database.transaction().execute(async (trx) => {
    // Rows come back as they were: triggers that record history (course prices) stand aside.
    await sql`SELECT set_config('shop.restoring', 'on', true)`.execute(trx);
    let table: string | undefined;
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (!table || batch.length === 0) return;
      const list = sql.join((await insertableColumns(trx, table)).map((column) => sql.ref(column)));
      // Identity columns keep their numbers (sign-in failures, price changes); their sequences follow below.
      await sql`INSERT INTO ${sql.table(table)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM jsonb_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(batch)}::jsonb)`.execute(
        trx,
      );
      counts[table] = (counts[table] ?? 0) + batch.length;
      batch = [];
    };
    let first = true;
    for await (const text of lines()) {
      if (first || !text) {
        first = false;
        continue;
      }
      const line = JSON.parse(text) as Line;
      if ('table' in line) {
        await flush();
        // Migrations were applied above; their bookkeeping is not data.
        table = line.table === 'schema_migrations' ? undefined : line.table;
      } else if ('row' in line && table) {
        batch.push(line.row);
        if (batch.length >= BATCH_ROWS) await flush();
      }
    }
    await flush();
    await continueIdentities(trx);
  });
  return counts;
}

/** Each identity column's sequence set past the numbers restored, so new rows never collide with them. */
async function continueIdentities(database: Db): Promise<void> {
  const { rows } = await sql<{ table: string; column: string }>`
    SELECT table_name AS table, column_name AS column FROM information_schema.columns
    WHERE table_schema = 'public' AND is_identity = 'YES'`.execute(database);
  for (const { table, column } of rows)
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) FROM ${sql.table(table)}`.execute(
      database,
    );
}

/** Rows and a checksum of a table's content, to compare a database with its restored copy. */
export async function tableChecksum(database: Db, table: string): Promise<{ rows: number; checksum: string }> {
  const { rows } = await sql<{ rows: number; checksum: string }>`
    SELECT count(*)::int AS rows, coalesce(md5(string_agg(to_jsonb(t)::text, '|' ORDER BY to_jsonb(t)::text)), '') AS checksum
    FROM ${sql.table(table)} t`.execute(database);
  return rows[0]!;
}

/** Parents before children; a key checked at commit (INITIALLY DEFERRED) does not order its tables. */
async function tablesInDependencyOrder(database: Db): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(
    database,
  );
  const { rows: edges } = await sql<{ child: string; parent: string }>`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE c.contype = 'f' AND n.nspname = 'public' AND NOT c.condeferred`.execute(database);
  const ordered: string[] = [];
  const pending = new Set(tables.map((table) => table.name));
  while (pending.size > 0) {
    const ready = [...pending].filter(
      (name) => !edges.some((edge) => edge.child === name && edge.parent !== name && pending.has(edge.parent)),
    );
    if (ready.length === 0) throw new Error(`Circular foreign keys among: ${[...pending].join(', ')}`);
    for (const name of ready) {
      ordered.push(name);
      pending.delete(name);
    }
  }
  return ordered;
}

async function insertableColumns(database: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT column_name AS name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name = ${table} AND is_generated = 'NEVER' ORDER BY ordinal_position`.execute(
    database,
  );
  return rows.map((row) => row.name);
}

async function ensureNoData(database: Db): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'`.execute(
    database,
  );
  for (const { name } of rows) {
    const { rows: found } = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM ${sql.table(name)}) AS any`.execute(
      database,
    );
    if (found[0]!.any)
      throw new Error(`Restore needs a database without data, but "${name}" has rows (use --force to replace everything)`);
  }
}
