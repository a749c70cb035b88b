import { readFileSync } from 'node:fs';

/**
 * Whether a process id names a running process. A pid alone is weak evidence: a killed process stays
 * visible as a zombie until its parent reaps it (state Z in /proc), and a pid may be reused by another
 * program after a restart. Where /proc exists, a recorded start time tells the two apart.
 */
export function isRunning(pid: number, startedAt?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (!stat) return true; // No /proc (macOS): the signal check is all we have.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return startedAt === undefined || stat.startTime === startedAt;
}

/** The kernel's start time of a process (clock ticks since boot), to recognise it again later. */
export function processStartTime(pid: number): string | undefined {
  return procStat(pid)?.startTime;
}

/** The program a process runs (its argv[0]'s base name), where /proc tells. */
export function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function procStat(pid: number): { state: string; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', startTime: fields[19] ?? '' };
}
