import { devToolsEnabled } from './dev-tools.ts';

/**
 * The time scheduled deliveries go by (a gift's day): the real time, unless the developer tools have
 * moved it on, so a test can see tomorrow's gift delivered by the real job runner without waiting a
 * day (`POST /api/dev/clock`). Only this process's jobs see it; nothing is stored.
 */
export const DEV_CLOCK_MAX_DAYS = 400;
// The server bundle (the endpoint) and the start script (the jobs) each load this module; both read one offset.
const OFFSET_KEY = Symbol.for('microcourses.dev-clock-offset');
const holder = globalThis as { [OFFSET_KEY]?: number };

export function scheduleNow(): Date {
  return new Date(Date.now() + (holder[OFFSET_KEY] ?? 0));
}

/** Moves the schedule's clock to `days` after the real time (0: back to it); false when the tools are off. */
export function moveDevClock(days: number): boolean {
  if (!devToolsEnabled()) return false;
  holder[OFFSET_KEY] = days * 24 * 60 * 60 * 1000;
  return true;
}
