import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { log } from '../log.ts';
import { healthRecorder, type Outcome } from './health.ts';
import { runPeriodicJob } from './periodic.ts';
import { quietMoment } from '../http/in-flight.ts';

/**
 * How long a batch of background work waits for a moment without requests (http/in-flight.ts): a
 * crowd's answers come first; under steady traffic the work still runs, this much later.
 */
export const YIELD_MS = 1000;

/** What one run did: how many things, and whether its batch was full (more is waiting: run again at once). */
export interface Ran {
  done: number;
  full: boolean;
}

/** A job as the runner runs it on each instance: every `intervalMs`, one run at a time. */
export interface Job {
  name: string;
  intervalMs: number;
  /** One run; throws on failure. */
  run(database: Db): Promise<Ran>;
  /** Where its health is recorded: none here when the run records it itself (periodic jobs). */
  record?: (database: Db) => (outcome: Outcome) => Promise<void>;
}

/**
 * "Every `everyMs`, once across instances" (the job's `jobs` row is locked while it runs; see
 * periodic.ts), offered by each instance every `checkMs` at most. The run records its own health
 * in its transaction.
 */
export function periodicJob(
  name: string,
  { everyMs, checkMs }: { everyMs: number; checkMs: number },
  work: (trx: Transaction<Database>) => Promise<number>,
): Job {
  return {
    name,
    intervalMs: Math.min(everyMs, checkMs),
    run: async (database) => ({ done: (await runPeriodicJob(database, name, everyMs, work)) ?? 0, full: false }),
  };
}

/**
 * "Process these rows": work that claims its own rows (FOR UPDATE SKIP LOCKED), so it runs on every
 * instance every `intervalMs`, and again at once while a batch comes back full. Its health is
 * recorded on state changes and at most once a minute (health.ts), not at every run.
 */
export function rowsJob(name: string, intervalMs: number, work: (database: Db) => Promise<Ran>): Job {
  return { name, intervalMs, run: work, record: (database) => healthRecorder(database, name) };
}

/**
 * Starts every job in its own loop (a slow one never holds up another). A run that fails is logged
 * and retried after the interval. `stop()` waits for the runs under way: at most one batch per job.
 */
export function startJobs(database: Db, jobs: Job[]): { stop(): Promise<void> } {
  const loops = jobs.map((job) => startLoop(database, job));
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}

function startLoop(database: Db, job: Job): { stop(): Promise<void> } {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const record = job.record?.(database);
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = tick(database, job, record, () => stopped).finally(schedule);
    }, job.intervalMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}

/**
 * One tick: runs until a batch is not full, then one log line, `{ job, done, ms }` or `{ job, err }`.
 * Each batch first waits for a moment without requests in this process (at most YIELD_MS).
 */
async function tick(database: Db, job: Job, record: ((outcome: Outcome) => Promise<void>) | undefined, stopping: () => boolean) {
  const started = performance.now();
  let done = 0;
  try {
    let ran: Ran;
    do {
      await quietMoment(YIELD_MS);
      ran = await job.run(database);
      done += ran.done;
    } while (ran.full && !stopping());
  } catch (error) {
    log.error({ job: job.name, err: error }, 'job failed');
    await record?.({ ok: false, error });
    return;
  }
  await record?.({ ok: true });
  if (done > 0) log.info({ job: job.name, done, ms: Math.round(performance.now() - started) }, 'job done');
}
