import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { env } from '../env.ts';
import { log } from '../log.ts';
import type { Database } from './schema.ts';
import { nameStatementsOn } from './named-statements.ts';

// Return int8 (counts, sums) as numbers: every amount we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Kysely<Database>;

let shared: Db | undefined;

/** The process-wide database handle, built from DATABASE_URL on first use. */
export function db(): Db {
  if (!shared) {
    const url = env().DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the shop with `npm start`, which provides a database.');
    shared = createDb(url, env().DATABASE_POOL_SIZE);
  }
  return shared;
}

export function createDb(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the server.
  pool.on('error', (error) => log.warn({ err: error }, 'idle database connection lost'));
  nameStatementsOn(pool, connectionString);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export async function closeDb(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.destroy();
}

/** Points the shared handle at another database (tests give each file its own). */
export function useDb(database: Db): void {
  shared = database;
}
