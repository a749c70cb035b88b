import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { serializeError } from '../log.ts';

/** What one run of a job came to: what the `jobs` row records. */
export type Outcome = { ok: true } | { ok: false; error: unknown };

/** A job's health as every instance's admin overview and `npm run doctor` read it. */
export interface JobHealth {
  name: string;
  /** The last run that succeeded (for jobs on every instance: to about a minute). */
  lastSuccessAt: Date | null;
  /** Failing now, since then, without a success in between; null while it works. */
  failingSince: Date | null;
  lastError: string | null;
}

/** How often a job that keeps working (or keeps failing) refreshes its row, per instance. */
const HEALTH_REFRESH_MS = 60_000;

/** A job's row: written by its first run (a migration row would make a fresh database hold data). */
export async function ensureJobRow(database: Db, name: string): Promise<void> {
  await database
    .insertInto('jobs')
    .values({ name })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

/** The columns an outcome writes; `last_success_at` never goes back (the blog schedule's window starts there). */
export function healthColumns(outcome: Outcome) {
  return outcome.ok
    ? { last_success_at: sql<Date>`greatest(last_success_at, now())`, failing_since: null, last_error: null }
    : {
        failing_since: sql<Date>`coalesce(failing_since, now())`,
        last_error: serializeError(outcome.error).message.slice(0, 1000),
      };
}

/**
 * Records a job's outcomes on this instance: at once when it turns from working to failing or back,
 * otherwise at most every HEALTH_REFRESH_MS, so a job that runs every second does not write every
 * second. A write that fails (the database is down: the job's failure says so) is tried at the next outcome.
 */
export function healthRecorder(database: Db, name: string): (outcome: Outcome) => Promise<void> {
  let written: { failing: boolean; at: number } | undefined;
  return async (outcome) => {
    const failing = !outcome.ok;
    if (written?.failing === failing && Date.now() - written.at < HEALTH_REFRESH_MS) return;
    try {
      await ensureJobRow(database, name);
      await database.updateTable('jobs').set(healthColumns(outcome)).where('name', '=', name).execute();
      written = { failing, at: Date.now() };
    } catch {
      written = undefined;
    }
  };
}

/** Every job's health, failing ones first (none before the first start: the table is then missing). */
export async function jobsHealth(database: Db): Promise<JobHealth[]> {
  const created = await sql<{ exists: boolean }>`SELECT to_regclass('jobs') IS NOT NULL AS exists`.execute(database);
  if (!created.rows[0]?.exists) return [];
  const rows = await database
    .selectFrom('jobs')
    .select(['name', 'last_success_at', 'failing_since', 'last_error'])
    .orderBy(sql`failing_since IS NULL`)
    .orderBy('name')
    .execute();
  return rows.map((row) => ({
    name: row.name,
    lastSuccessAt: row.last_success_at,
    failingSince: row.failing_since,
    lastError: row.last_error,
  }));
}

/** The jobs failing now: what the overview and the doctor show. */
export async function failingJobs(database: Db): Promise<JobHealth[]> {
  return (await jobsHealth(database)).filter((job) => job.failingSince !== null);
}
