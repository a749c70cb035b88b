import { devToolsEnabled } from './dev-tools.ts';

/**
 * The time scheduled deliveries go by (a gift's day): the real time, unless the developer tools have
 * moved it on, so a test can see tomorrow's gift delivered by the real job runner without waiting a
 * day (`POST /api/dev/clock`). Only this process's jobs see it; nothing is stored.
 */
let offsetMs = 0;
export const DEV_CLOCK_MAX_DAYS = 400;

export function scheduleNow(): Date {
  return new Date(Date.now() + offsetMs);
}

/** Moves the schedule's clock to `days` after the real time (0: back to it); false when the tools are off. */
export function moveDevClock(days: number): boolean {
  if (!devToolsEnabled()) return false;
  offsetMs = days * 24 * 60 * 60 * 1000;
  return true;
}
