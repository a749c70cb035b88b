import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { within } from '../timeout.ts';

export interface Health {
  status: 'ok' | 'error';
  database: 'up' | 'down';
  latencyMs: number;
}

const HEALTH_TIMEOUT_MS = 2_000;

export async function checkHealth(): Promise<Health> {
  const started = performance.now();
  const up = await within(
    sql`SELECT 1`.execute(db()).then(() => true),
    HEALTH_TIMEOUT_MS,
    false,
  ).catch(() => false);
  return { status: up ? 'ok' : 'error', database: up ? 'up' : 'down', latencyMs: Math.round(performance.now() - started) };
}
