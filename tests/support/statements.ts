import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { db, useDb } from '../../functions/db/database.ts';
import type { Database } from '../../functions/db/schema.ts';

/**
 * The SQL `work` sends through the shop's handle (`db()`), in order, transactions' begin and commit
 * included: run on a handle of its own to this file's database that logs every statement.
 */
export async function statementsOf<T>(work: () => Promise<T>, connections = 1): Promise<{ result: T; statements: string[] }> {
  const original = db();
  const statements: string[] = [];
  const logging = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: connections }) }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql.replace(/\s+/g, ' ').trim());
    },
  });
  useDb(logging);
  try {
    return { result: await work(), statements };
  } finally {
    useDb(original);
    await logging.destroy();
  }
}
