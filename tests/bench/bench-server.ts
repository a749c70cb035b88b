import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb, type Db } from '../../functions/db/database.ts';
import { findFreePort, startEmbeddedPostgres, type EmbeddedServer } from '../../functions/db/embedded.ts';
import { migrate } from '../../functions/db/migrate.ts';
import { withDatabase } from '../../functions/db/provision.ts';
import { seedDemoData } from '../../functions/seed/seed.ts';
import type { TestServer } from '../support/test-server.ts';
import { Running } from '../../functions/cli/services.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../functions/cli/server-flags.ts';

/** A benchmark world: its own PostgreSQL, a database with many courses, the built shop serving it. */
export interface BenchWorld {
  baseUrl: string;
  /** The first server's process id (to read its memory). */
  serverPid: number;
  database: Db;
  databaseUrl: string;
  /** Another server process on the same database, with extra settings (e.g. Stripe keys). */
  startServer(extraEnv: Record<string, string>, options?: { inspectable?: boolean }): Promise<BenchServer>;
  stop(): Promise<void>;
}

export interface BenchServer {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
  /**
   * A full garbage collection in the server, through the inspector of a server started `inspectable`
   * (the bench's own flag: nothing in the shop exposes it), for memory "at rest".
   */
  collectGarbage(): Promise<MemoryAtRest>;
}

/** process.memoryUsage() in MB, without the RSS (read from /proc by the bench: rssMb). */
export interface MemoryAtRest {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

const SECRET = randomBytes(32).toString('base64url');

const BENCH_DATA_DIR = '.data/bench';
const BENCH_DATABASE = 'shop_bench';

/** `serverEnv`: settings of the first server (every later one is started with its own). */
export async function startBenchWorld({
  courses,
  serverEnv = {},
}: {
  courses: number;
  serverEnv?: Record<string, string>;
}): Promise<BenchWorld> {
  // Stopped in reverse order of starting, also when a later step of the start fails.
  const running = new Running();
  try {
    return await startWorld(running, courses, serverEnv);
  } catch (error) {
    await running.stopAll();
    throw error;
  }
}

/**
 * The bench's PostgreSQL: `BENCH_DATABASE_URL` names a server started separately (the bench creates its
 * database there), else an embedded one in processes of its own. Either way the shop's server process
 * holds no database: its memory is the Node server's alone.
 */
async function startPostgres(running: Running): Promise<string> {
  const external = process.env.BENCH_DATABASE_URL;
  if (external) {
    console.log(`PostgreSQL: the one at BENCH_DATABASE_URL (${new URL(external).host}), started separately`);
    return external;
  }
  const postgres = await startEmbeddedPostgres({ dataDir: BENCH_DATA_DIR });
  running.add('bench PostgreSQL', () => postgres.stop());
  return postgres.url;
}

async function startWorld(running: Running, courses: number, serverEnv: Record<string, string>): Promise<BenchWorld> {
  const postgresUrl = await startPostgres(running);
  const admin = createDb(postgresUrl, 1);
  await sql`DROP DATABASE IF EXISTS ${sql.id(BENCH_DATABASE)} WITH (FORCE)`.execute(admin);
  await sql`CREATE DATABASE ${sql.id(BENCH_DATABASE)}`.execute(admin);
  await admin.destroy();

  const databaseUrl = withDatabase(postgresUrl, BENCH_DATABASE);
  process.env.DATA_DIR = BENCH_DATA_DIR;
  const database = createDb(databaseUrl, 4);
  running.add('bench database pool', () => database.destroy());
  await migrate(database);
  await seedDemoData(database);
  await insertGeneratedCourses(database, courses);

  const startServer = async (extraEnv: Record<string, string> = {}, { inspectable = false } = {}): Promise<BenchServer> => {
    const port = await findFreePort();
    const inspectPort = inspectable ? await findFreePort() : 0;
    const inspect = inspectable ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
    // Started as `npm start` starts it (server-flags.ts); production checks that the build is current (the
    // bench built it), as a deploy's start does.
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...inspect, 'functions/cli/start.ts'], {
      env: {
        ...process.env,
        ...SERVER_ENV,
        ENV_FILE: '',
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: BENCH_DATA_DIR,
        NODE_ENV: 'production',
        BETTER_AUTH_SECRET: SECRET,
        DEV_TOOLS: 'on',
        PRODUCTION_CHECKS: 'test-harness',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const server = {
      baseUrl: `http://127.0.0.1:${port}`,
      pid: child.pid!,
      stop: () => stopChild(child),
      collectGarbage: () => collectGarbage(inspectPort),
    };
    running.add('bench server', server.stop);
    await waitForOutput(child, 'Shop ready');
    return server;
  };
  const main = await startServer(serverEnv);
  return {
    baseUrl: main.baseUrl,
    serverPid: main.pid,
    database,
    databaseUrl,
    startServer,
    stop: () => running.stopAll(),
  };
}

/**
 * A full, compacting collection (V8's low-memory notification) in the process whose inspector is at
 * `port`, then its memory as Node counts it (MB).
 */
async function collectGarbage(port: number): Promise<MemoryAtRest> {
  if (!port) throw new Error('collectGarbage needs a server started with { inspectable: true }');
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const call = (id: number, method: string, params = {}) =>
    new Promise<{ result?: { result?: { value?: string } } }>((resolve, reject) => {
      socket.onmessage = (message) => resolve(JSON.parse(String(message.data)) as { result?: { result?: { value?: string } } });
      socket.onerror = reject;
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await call(1, 'HeapProfiler.collectGarbage');
    const usage = await call(2, 'Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    const bytes = JSON.parse(usage.result!.result!.value!) as Record<keyof MemoryAtRest, number>;
    const mb = (n: number) => Math.round(n / 1024 / 1024);
    return {
      heapUsed: mb(bytes.heapUsed),
      heapTotal: mb(bytes.heapTotal),
      external: mb(bytes.external),
      arrayBuffers: mb(bytes.arrayBuffers),
    };
  } finally {
    socket.close();
  }
}

/** Bulk-inserts believable courses in one statement (10,000 in well under a second). */
async function insertGeneratedCourses(database: Db, count: number): Promise<void> {
  await sql`
    INSERT INTO courses (title, description, category, difficulty_level, language, price_minor, currency, duration_minutes,
                         instructor_name, instructor_bio, tags, created_at)
    SELECT 'Practical course ' || n || CASE WHEN n % 7 = 0 THEN ' İstanbul' ELSE '' END,
           'A short, practical micro-course number ' || n || ' about saving money, income and calm.',
           (ARRAY['technology','business','design','marketing','health-wellness','personal-development'])[1 + n % 6],
           (ARRAY['beginner','intermediate','advanced'])[1 + n % 3],
           (ARRAY['en','tr'])[1 + n % 2],
           (n % 50) * 100, 'USD', 10 + n % 20, 'Instructor ' || (n % 300), 'Teaches practical skills.',
           ARRAY['tag' || (n % 10), 'skill' || (n % 25)], now() - (n || ' minutes')::interval
    FROM generate_series(1, ${count}) AS n`.execute(database);
  await sql`ANALYZE courses`.execute(database);
}

/** Something started for the bench, answering at `url`. */
export interface Baseline {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The same bytes with the same content headers, served by the smallest reasonable Node server: the
 * baseline for "as fast as static". A process of its own, so its CPU time is measured like the shop's.
 */
export async function startNodeBaseline(body: Buffer, headers: Record<string, string>): Promise<Baseline> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-node-'));
  writeFileSync(path.join(dir, 'body'), body);
  const port = await findFreePort();
  const script = `
    const body = require('fs').readFileSync(${JSON.stringify(path.join(dir, 'body'))});
    const headers = { ...${JSON.stringify(headers)}, 'Content-Length': body.length };
    require('http').createServer((req, res) => { res.writeHead(200, headers); res.end(body); })
      .listen(${port}, '127.0.0.1', () => console.log('listening'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await waitForOutput(child, 'listening');
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid!,
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same bytes served by nginx with one worker, when nginx is installed; undefined (and says so) when not. */
export async function startNginxBaseline(body: Buffer, headers: Record<string, string>): Promise<Baseline | undefined> {
  const nginx = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  if (!nginx) {
    console.log('nginx is not installed (not on PATH): the nginx baseline is skipped.');
    return undefined;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-nginx-'));
  writeFileSync(path.join(dir, 'body'), body);
  const port = await findFreePort();
  const { 'Content-Type': type, ...rest } = headers;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir}; scgi_temp_path ${dir}; types { } default_type "${type ?? 'text/html'}"; keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    location / { root ${dir}; try_files /body =404; ${Object.entries(rest)
      .map(([name, value]) => `add_header ${name} "${value}";`)
      .join(' ')} }
  }
}
`,
  );
  const child = spawn(nginx, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(url);
  } catch (error) {
    await stop();
    throw error;
  }
  // The worker serves; the master only watches it.
  const worker = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  return { url, pid: worker || child.pid!, stop };
}

async function waitUntilAnswering(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What one load run measured: the generator's figures, and the CPU time the server and the generator each used. */
export interface Load {
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
  'server CPU µs/req': number;
  'generator CPU µs/req': number;
}

/**
 * Load from autocannon in a process of its own (tests/bench/load-generator.ts), `connections` at once
 * for `durationS`, against a server whose process is `pid`. The generator's CPU per request is printed
 * beside the server's: when it nears a core's worth, the generator, not the server, is the bottleneck.
 */
export async function generateLoad(
  url: string,
  pid: number,
  connections: number,
  durationS: number,
  headers: Record<string, string> = {},
): Promise<Load> {
  const serverBefore = cpuMs(pid);
  const child = spawn(
    process.execPath,
    ['tests/bench/load-generator.ts', JSON.stringify({ url, connections, duration: durationS, headers })],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`The load generator exited with ${String(code)}`);
  const serverMs = cpuMs(pid) - serverBefore;
  const result = JSON.parse(output.trim().split('\n').at(-1)!) as {
    requests: number;
    rps: number;
    p50: number;
    p99: number;
    errors: number;
    cpuMs: number;
  };
  const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(1, result.requests));
  return {
    'req/s': Math.round(result.rps),
    'p50 ms': result.p50,
    'p99 ms': result.p99,
    errors: result.errors,
    'server CPU µs/req': perRequest(serverMs),
    'generator CPU µs/req': perRequest(result.cpuMs),
  };
}

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Samples a process's resident memory until stopped: the peak it reached meanwhile. */
export function watchPeakRss(pid: number, everyMs = 100): { peakMb(): number; stop(): void } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // The process has ended.
    }
  }, everyMs);
  return { peakMb: () => peak, stop: () => clearInterval(timer) };
}

export function waitForOutput(child: ChildProcess, text: string, timeoutMs = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out waiting for "${text}"`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`Server exited with ${String(code)}`)));
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A bench server as the tests' Browser reaches it (with the Origin a browser would send). */
export function asTestServer(url: string): TestServer {
  return {
    url,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('origin')) headers.set('origin', url);
      return fetch(`${url}${path}`, { redirect: 'manual', ...init, headers });
    },
    stop: () => Promise.resolve(),
  };
}

/** A process's resident memory in MB. */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Math.round(Number(line?.[1] ?? 0) / 1024);
}

export type { EmbeddedServer };
