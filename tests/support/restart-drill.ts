import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { createDb } from '../../functions/db/database.ts';
import { findFreePort } from '../../functions/db/embedded.ts';
import { isRunning } from '../../functions/db/processes.ts';

/**
 * The restart drill: `npm start` on its own embedded PostgreSQL, stopped the ways a supervisor, a
 * container runtime or a person stops it, and started again at once, cycle after cycle. Before each
 * stop a row is committed; after each start every row committed so far must be there.
 */
export type StopMode =
  | 'SIGTERM to the group'
  | 'SIGINT to the group'
  | 'SIGKILL to the group'
  | 'SIGKILL to node only'
  | 'SIGTERM, then SIGKILL to the group';
/** Each signal alone; `npm test` restarts once after each. */
export const STOP_MODES: StopMode[] = [
  'SIGTERM to the group',
  'SIGINT to the group',
  'SIGKILL to the group',
  'SIGKILL to node only',
];

/**
 * A supervisor's stop: SIGTERM, then SIGKILL of the whole group when its grace period ends, which may
 * land at any moment of the shutdown (a lock half-written included). Each use of the mode takes the
 * next delay of a sweep over 0–300 ms. `npm run faults` runs it (its cause, a lock file that names no
 * process, has its own fast test in tests/integration/db/embedded.test.ts).
 */
export const SUPERVISOR_STOP: StopMode = 'SIGTERM, then SIGKILL to the group';
export const KILL_AFTER_TERM_MS = [0, 5, 20, 50, 100, 150, 200, 300];

export interface DrillResult {
  cycles: number;
  healthy: number;
  /** Milliseconds from spawning `npm start` to /api/health answering 200, per cycle. */
  readyMs: number[];
  rowsWritten: number;
  rowsMissing: number;
  failures: string[];
  /** Stops of each mode, and the restarts after them that failed (not healthy, or rows missing). */
  byMode: Partial<Record<StopMode, { stops: number; failures: number }>>;
}

/** The goal `npm run faults` holds a restart to; a test on a busy machine may allow more (readyLimitMs). */
export const READY_GOAL_MS = 10_000;
// The first start creates the cluster, migrates and seeds: not a restart, and slower on a busy machine.
const FIRST_START_LIMIT_MS = 60_000;

export async function runRestartDrill({
  cycles,
  dataDir,
  modes = STOP_MODES,
  readyLimitMs = READY_GOAL_MS,
}: {
  cycles: number;
  dataDir: string;
  modes?: StopMode[];
  readyLimitMs?: number;
}): Promise<DrillResult> {
  await rm(dataDir, { recursive: true, force: true });
  const [pgPort, port] = [await findFreePort(), await findFreePort()];
  const env = {
    ...process.env,
    ENV_FILE: '',
    DATABASE_URL: '',
    PGPORT: String(pgPort),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: 'development',
    BETTER_AUTH_SECRET: 'restart-drill-secret-restart-drill-secret',
  };
  const result: DrillResult = { cycles, healthy: 0, readyMs: [], rowsWritten: 0, rowsMissing: 0, failures: [], byMode: {} };
  const written: string[] = [];
  let shop: ChildProcess | undefined;
  let lastStop: StopMode | undefined;
  const failed = (message: string) => {
    result.failures.push(message);
    if (lastStop) result.byMode[lastStop]!.failures++;
  };
  for (let cycle = 0; cycle <= cycles; cycle++) {
    const output: string[] = [];
    const startedAt = performance.now();
    // Its own process group, as under a supervisor: a group signal reaches PostgreSQL too.
    shop = spawn(process.execPath, ['functions/cli/start.ts', '--no-build'], {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    shop.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    shop.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const limitMs = cycle === 0 ? FIRST_START_LIMIT_MS : readyLimitMs;
    // Health counts once this process says it listens: until then the old one may still answer.
    const ready = await waitForHealth(
      `http://127.0.0.1:${port}/api/health`,
      shop,
      () => output.join('').includes('Shop ready'),
      limitMs,
    );
    if (!ready) {
      failed(
        `cycle ${cycle}: not healthy within ${limitMs} ms ${lastStop ? `after ${lastStop}` : 'at the first start'}:\n${output.join('').slice(-2000)}`,
      );
      break;
    }
    result.readyMs.push(performance.now() - startedAt);
    const database = createDb(`postgres://postgres:postgres@127.0.0.1:${pgPort}/shop`, 1);
    try {
      const present = await sql<{ subject: string }>`SELECT subject FROM contact_messages WHERE subject LIKE 'drill %'`.execute(
        database,
      );
      const seen = new Set(present.rows.map((row) => row.subject));
      const missing = written.filter((subject) => !seen.has(subject));
      result.rowsMissing += missing.length;
      if (missing.length > 0) failed(`cycle ${cycle}: ${missing.length} committed rows missing after ${lastStop}`);
      else if (cycle > 0) result.healthy++;
      if (cycle === cycles) break;
      const subject = `drill ${cycle} ${randomUUID()}`;
      await sql`INSERT INTO contact_messages (name, email, subject, message, language) VALUES ('Drill', 'drill@example.com', ${subject}, 'Written before a stop.', 'en')`.execute(
        database,
      );
      written.push(subject);
      result.rowsWritten++;
    } finally {
      await database.destroy();
    }
    lastStop = modes[cycle % modes.length]!;
    const counts = (result.byMode[lastStop] ??= { stops: 0, failures: 0 });
    await stop(shop, lastStop, false, KILL_AFTER_TERM_MS[counts.stops % KILL_AFTER_TERM_MS.length]);
    counts.stops++;
  }
  if (shop) await stop(shop, 'SIGTERM to the group', true);
  return result;
}

async function waitForHealth(url: string, child: ChildProcess, listening: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline && child.exitCode === null) {
    const ok =
      listening() &&
      (await fetch(url).then(
        (response) => response.ok,
        () => false,
      ));
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Sends the stop; the next start follows at once (never waiting for the old process to finish). */
async function stop(child: ChildProcess, mode: StopMode, waitForExit = false, killAfterMs = 0): Promise<void> {
  const pid = child.pid!;
  const send = (target: number, signal: NodeJS.Signals) => {
    try {
      process.kill(target, signal);
    } catch {
      // Already gone.
    }
  };
  if (mode === 'SIGKILL to node only') send(pid, 'SIGKILL');
  else if (mode === 'SIGTERM, then SIGKILL to the group') {
    send(-pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    send(-pid, 'SIGKILL');
  } else send(-pid, mode.split(' ')[0] as NodeJS.Signals);
  if (!waitForExit) return;
  const deadline = Date.now() + 20_000;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
