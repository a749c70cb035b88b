import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * A task every server instance offers to run, run once per period by whichever instance gets there
 * first: its `periodic_tasks` row is locked (FOR UPDATE SKIP LOCKED) for the whole run and records
 * when it last ran. Another instance ticking meanwhile skips the locked row; one ticking after sees
 * the task ran recently. A process that dies mid-run leaves the row as it was (its transaction never
 * commits), so the task runs again at the next tick. Returns the task's result, or undefined when it
 * was not this instance's turn; a failure is thrown after it is recorded.
 */
export async function runPeriodicTask<T>(
  database: Db,
  task: string,
  everyMs: number,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T | undefined> {
  // The row appears at the first tick (a migration row would make a fresh database hold data).
  await database
    .insertInto('periodic_tasks')
    .values({ task })
    .onConflict((conflict) => conflict.column('task').doNothing())
    .execute();
  const result = await database.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('periodic_tasks')
      .select('task')
      .where('task', '=', task)
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
    // A failed run counts as a run: its work is undone (back to the savepoint) and it is tried again
    // after the period, not at every tick of every instance.
    await sql`SAVEPOINT periodic_work`.execute(trx);
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await work(trx) };
      await sql`RELEASE SAVEPOINT periodic_work`.execute(trx);
    } catch (error) {
      outcome = { ok: false, error };
      await sql`ROLLBACK TO SAVEPOINT periodic_work`.execute(trx);
    }
    await trx
      .updateTable('periodic_tasks')
      .set({ last_run_at: sql<Date>`now()` })
      .where('task', '=', task)
      .execute();
    return outcome;
  });
  if (!result) return undefined;
  if (!result.ok) throw result.error;
  return result.value;
}
