import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDb, db } from '../../../functions/db/database.ts';
import { failingJobs, jobsHealth } from '../../../functions/jobs/health.ts';
import { periodicJob, rowsJob, startJobs, YIELD_MS, type Job } from '../../../functions/jobs/runner.ts';
import { countWhileAnswered } from '../../../functions/http/in-flight.ts';
import { log } from '../../../functions/log.ts';

/**
 * The one runner every background job goes through (functions/jobs/runner.ts): two runners on one
 * database stand for two server instances.
 */
const HOUR_MS = 60 * 60 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const info = vi.spyOn(log, 'info').mockImplementation(() => undefined);
const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
const running: { stop(): Promise<void> }[] = [];
const start = (jobs: Job[], database = db()) => {
  const runner = startJobs(database, jobs);
  running.push(runner);
  return runner;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((runner) => runner.stop()));
  info.mockClear();
  error.mockClear();
});
const healthOf = async (name: string) => (await jobsHealth(db())).find((job) => job.name === name);

describe('the job runner', () => {
  it('runs a periodic job once per period across two instances, and logs { job, done, ms }', async () => {
    const other = createDb(process.env.DATABASE_URL!, 2);
    try {
      let runs = 0;
      const job = periodicJob('runner-test-periodic', { everyMs: HOUR_MS, checkMs: 10 }, async () => {
        runs++;
        await sleep(30); // long enough for the other instance to tick while the row is locked
        return 3;
      });
      start([job]);
      start([job], other);
      await expect.poll(() => info.mock.calls.length, { timeout: 3000, interval: 10 }).toBe(1);
      await sleep(200); // twenty more ticks of each instance
      expect(runs).toBe(1);
      expect(info).toHaveBeenCalledTimes(1);
      expect(info).toHaveBeenCalledWith({ job: 'runner-test-periodic', done: 3, ms: expect.any(Number) as number }, 'job done');
      expect((await healthOf('runner-test-periodic'))?.lastSuccessAt).toBeInstanceOf(Date);
    } finally {
      await Promise.all(running.splice(0).map((runner) => runner.stop()));
      await other.destroy();
    }
  });

  it('runs a batch once no request is being answered, or after YIELD_MS while requests keep coming', async () => {
    const answering = () => {
      const response = new EventEmitter();
      countWhileAnswered(response as ServerResponse);
      return () => response.emit('close');
    };
    const runs: number[] = [];
    let closeRequest = answering();
    const startedAt = performance.now();
    start([
      rowsJob('runner-test-yield', 10, () => Promise.resolve({ done: runs.push(performance.now() - startedAt), full: false })),
    ]);
    await sleep(200);
    expect(runs).toEqual([]); // a request is being answered: the batch waits
    closeRequest();
    await expect.poll(() => runs.length, { timeout: 1000, interval: 5 }).toBeGreaterThan(0);
    expect(runs[0]).toBeLessThan(YIELD_MS);
    // A server never without a request still runs its jobs, YIELD_MS late.
    closeRequest = answering();
    const before = runs.length;
    await expect.poll(() => runs.length, { timeout: YIELD_MS * 3, interval: 10 }).toBeGreaterThan(before);
    closeRequest();
  });

  it('drains a rows job in one tick while its batches come back full', async () => {
    let waiting = 25;
    const batches: number[] = [];
    start([
      rowsJob('runner-test-rows', 60, () => {
        const taken = Math.min(10, waiting);
        waiting -= taken;
        batches.push(taken);
        return Promise.resolve({ done: taken, full: taken === 10 });
      }),
    ]);
    await expect.poll(() => info.mock.calls.length, { timeout: 3000, interval: 5 }).toBe(1);
    // 10, 10, 5 at once: one tick, one log line with everything it did.
    expect(batches.slice(0, 3)).toEqual([10, 10, 5]);
    expect(info.mock.calls).toEqual([[{ job: 'runner-test-rows', done: 25, ms: expect.any(Number) as number }, 'job done']]);
  });

  it('records a failing job where every instance sees it, then its recovery, without writing at every tick', async () => {
    let broken = true;
    let runs = 0;
    const work = () => {
      runs++;
      return broken ? Promise.reject(new Error('storage unreachable')) : Promise.resolve({ done: 0, full: false });
    };
    start([
      rowsJob('runner-test-failing-rows', 10, work),
      periodicJob('runner-test-failing-periodic', { everyMs: 10, checkMs: 10 }, async () => (await work()).done),
    ]);
    await expect
      .poll(async () => (await failingJobs(db())).map((job) => job.name).sort(), { timeout: 3000 })
      .toEqual(['runner-test-failing-periodic', 'runner-test-failing-rows']);
    const failing = (await healthOf('runner-test-failing-rows'))!;
    expect(failing).toMatchObject({ lastSuccessAt: null, lastError: 'storage unreachable' });
    expect(error).toHaveBeenCalledWith({ job: 'runner-test-failing-rows', err: expect.any(Error) as Error }, 'job failed');
    // Still failing: the first failure's time stays.
    await sleep(50);
    expect((await healthOf('runner-test-failing-rows'))!.failingSince).toEqual(failing.failingSince);

    broken = false;
    await expect.poll(async () => (await failingJobs(db())).length, { timeout: 3000 }).toBe(0);
    const recovered = (await healthOf('runner-test-failing-rows'))!;
    expect(recovered).toMatchObject({ failingSince: null, lastError: null });
    expect(recovered.lastSuccessAt).toBeInstanceOf(Date);
    // Working on, every 10 ms: the row keeps its success time for up to a minute (no write per tick).
    const runsBefore = runs;
    await expect.poll(() => runs, { timeout: 3000 }).toBeGreaterThan(runsBefore + 5);
    expect((await healthOf('runner-test-failing-rows'))!.lastSuccessAt).toEqual(recovered.lastSuccessAt);
  });

  it('stops after the run under way, and runs nothing more', async () => {
    const events: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runner = start([
      rowsJob('runner-test-stop', 10, async () => {
        events.push('run');
        await gate;
        events.push('run finished');
        return { done: 0, full: false };
      }),
    ]);
    await expect.poll(() => events, { timeout: 2000, interval: 5 }).toEqual(['run']);
    const stopped = runner.stop().then(() => events.push('stopped'));
    await sleep(50);
    expect(events).toEqual(['run']);
    release();
    await stopped;
    expect(events).toEqual(['run', 'run finished', 'stopped']);
    await sleep(50);
    expect(events).toHaveLength(3);
  });
});
