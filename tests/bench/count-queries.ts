import { renameSync, writeFileSync } from 'node:fs';
import pg from 'pg';

/**
 * Loaded into a bench server with `--import` (tests/bench/load.ts): counts the statements the process
 * sends to PostgreSQL, the transactions among them, and how long its queries waited for a pooled
 * connection. On SIGUSR2 it writes the counts so far as JSON to BENCH_QUERY_COUNTS.
 */
const counts = { queries: 0, transactions: 0, poolWaits: 0, poolWaitMs: 0, seq: 0 };

// Wrapped in place: every pool and client of the process (kysely's included) then goes through them.
const query = Reflect.get(pg.Client.prototype, 'query') as (this: pg.Client, ...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  counts.queries++;
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
  if (text && /^\s*begin\b/i.test(text)) counts.transactions++;
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const connect = Reflect.get(pg.Pool.prototype, 'connect') as (this: pg.Pool, ...args: unknown[]) => Promise<pg.PoolClient>;
pg.Pool.prototype.connect = async function (this: pg.Pool, ...args: unknown[]) {
  const started = performance.now();
  const waiting = this.idleCount === 0 && this.totalCount >= (this.options.max ?? 10);
  const client = await connect.apply(this, args);
  if (waiting) {
    counts.poolWaits++;
    counts.poolWaitMs += performance.now() - started;
  }
  return client;
} as typeof pg.Pool.prototype.connect;

process.on('SIGUSR2', () => {
  counts.seq++;
  const file = process.env.BENCH_QUERY_COUNTS!;
  // Whole or not at all: the bench may read it while it is written.
  writeFileSync(`${file}.part`, JSON.stringify(counts));
  renameSync(`${file}.part`, file);
});
