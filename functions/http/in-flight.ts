import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Requests this process is answering (http-server.ts counts each until its response closes), so that
 * background work (jobs/runner.ts) waits for a moment without any: a launch-day crowd's buyers are
 * answered first, and their mails rendered and sent a moment later, not in between.
 */
// The server (functions/cli/start.ts) and the routes of the built bundle each load this module.
const STORE = Symbol.for('microcourses.requests-in-flight');
const shared = globalThis as { [STORE]?: { count: number } };
const state = (shared[STORE] ??= { count: 0 });

const QUIET_POLL_MS = 10;

export function countWhileAnswered(res: ServerResponse): void {
  state.count++;
  res.once('close', () => state.count--);
}

export function requestsInFlight(): number {
  return state.count;
}

/** Resolves once no request is being answered, or after `maxWaitMs` (background work must not starve). */
export async function quietMoment(maxWaitMs: number): Promise<void> {
  const deadline = performance.now() + maxWaitMs;
  while (state.count > 0 && performance.now() < deadline) await delay(QUIET_POLL_MS);
}
