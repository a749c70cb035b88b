import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { ensureJobRow, healthColumns, type Outcome } from './health.ts';

/**
 * Runs a job once per `everyMs` across all instances, by whichever gets there first: its `jobs` row
 * is locked (FOR UPDATE SKIP LOCKED) for the whole run and records when it last ran and how it went.
 * Another instance ticking meanwhile skips the locked row; one ticking after sees the job ran
 * recently. A process that dies mid-run leaves the row as it was (its transaction never commits), so
 * the job runs again at the next tick. Returns the run's result, or undefined when it was not this
 * instance's turn; a failure is thrown after it is recorded. `everyMs` 0: now, unless another runs it.
 */
export async function runPeriodicJob<T>(
  database: Db,
  name: string,
  everyMs: number,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T | undefined> {
  await ensureJobRow(database, name);
  const result = await database.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('jobs')
      .select('name')
      .where('name', '=', name)
      .where((eb) =>
        eb.or([
          eb('last_run_at', 'is', null),
          eb('last_run_at', '<=', sql<Date>`now() - make_interval(secs => ${everyMs / 1000})`),
        ]),
      )
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!due) return undefined;
    const outcome = await inSavepoint(trx, () => work(trx));
    await trx
      .updateTable('jobs')
      .set({ last_run_at: sql<Date>`now()`, ...healthColumns(outcome) })
      .where('name', '=', name)
      .execute();
    return outcome;
  });
  if (!result) return undefined;
  if (!result.ok) throw result.error;
  return result.value;
}

/**
 * A failed run counts as a run: its work is undone (back to the savepoint) and it is tried again
 * after the period, not at every tick of every instance.
 */
async function inSavepoint<T>(
  trx: Transaction<Database>,
  work: () => Promise<T>,
): Promise<(Outcome & { ok: false }) | { ok: true; value: T }> {
  await sql`SAVEPOINT job_work`.execute(trx);
  try {
    const value = await work();
    await sql`RELEASE SAVEPOINT job_work`.execute(trx);
    return { ok: true, value };
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT job_work`.execute(trx);
    return { ok: false, error };
  }
}

/**
 * When the job's last successful run started (its transaction's now(); now() before the first), in
 * SQL: compared there, at the database's precision, a window that starts at it loses nothing and
 * repeats nothing.
 */
export function lastSuccessOf(name: string): RawBuilder<Date> {
  return sql<Date>`(SELECT coalesce(last_success_at, now()) FROM jobs WHERE name = ${name})`;
}
