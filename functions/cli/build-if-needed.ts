import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/** The inputs that change what `astro build` produces. */
const BUILD_INPUTS = ['src', 'functions', 'content', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];
const FINGERPRINT_FILE = 'dist/.build-fingerprint';
// Outside dist/, which `astro build` empties.
const LOCK_FILE = '.build.lock';
export const SERVER_ENTRY = 'dist/server/entry.mjs';

/** Whether dist/ was built from the sources as they are now. */
export function buildIsCurrent(root = process.cwd()): boolean {
  const current = existsSync(path.join(root, FINGERPRINT_FILE)) ? readFileSync(path.join(root, FINGERPRINT_FILE), 'utf8') : '';
  return current === fingerprintOf(root) && existsSync(path.join(root, SERVER_ENTRY));
}

/**
 * Runs `astro build` when dist/ is missing or older than its sources (development starts, tests).
 * Starts racing each other share one build: one builds under a lock file, the others wait for it
 * and find dist/ current. Returns whether this process built.
 */
export function buildIfNeeded(root = process.cwd()): boolean {
  if (buildIsCurrent(root)) return false;
  return withBuildLock(root, () => {
    if (buildIsCurrent(root)) return false;
    console.log('Building the shop (first start or changed sources)…');
    build(root);
    return true;
  });
}

/** `npm run build`: always builds (under the same lock), and records what it was built from. */
export function buildNow(root = process.cwd()): void {
  withBuildLock(root, () => build(root));
}

function build(root: string): void {
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  // Always a production build: a build made under NODE_ENV=test would compile JSX for React's
  // development runtime, which a production server does not load.
  const result = spawnSync(process.execPath, [astro, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('`astro build` failed; see the output above.');
  writeFileSync(path.join(root, FINGERPRINT_FILE), fingerprintOf(root));
}

/** One builder at a time per checkout; a lock left by a process that died is taken over. */
function withBuildLock<T>(root: string, work: () => T): T {
  const lock = path.join(root, LOCK_FILE);
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!holderAlive(lock)) {
        unlinkSync(lock);
        continue;
      }
      if (!announced) console.log('Another start is building the shop: waiting for it…');
      announced = true;
      sleepSync(250);
    }
  }
  try {
    return work();
  } finally {
    unlinkSync(lock);
  }
}

function holderAlive(lock: string): boolean {
  const pid = Number(readFileSync(lock, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function fingerprintOf(root: string): string {
  // The public origin is not an input: pages read it at run time, so one build serves any site URL.
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) {
    for (const file of listFiles(path.join(root, input))) {
      const info = statSync(file);
      hash.update(`${path.relative(root, file)}:${info.size}:${info.mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

function listFiles(target: string): string[] {
  if (!existsSync(target)) return [];
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules' ? [] : listFiles(path.join(target, entry.name)),
  );
}
