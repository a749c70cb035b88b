import { sql } from 'kysely';
import { db } from '../db/database.ts';

export interface Health {
  status: 'ok' | 'error';
  database: 'up' | 'down';
  latencyMs: number;
}

const HEALTH_TIMEOUT_MS = 2_000;

export async function checkHealth(): Promise<Health> {
  const started = performance.now();
  const up = await Promise.race([
    sql`SELECT 1`.execute(db()).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS).unref()),
  ]).catch(() => false);
  return { status: up ? 'ok' : 'error', database: up ? 'up' : 'down', latencyMs: Math.round(performance.now() - started) };
}
