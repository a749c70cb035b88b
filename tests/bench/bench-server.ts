import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb, type Db } from '../../functions/db/database.ts';
import { findFreePort, startEmbeddedPostgres, type EmbeddedServer } from '../../functions/db/embedded.ts';
import { migrate } from '../../functions/db/migrate.ts';
import { withDatabase } from '../../functions/db/provision.ts';
import { seedDemoData } from '../../functions/seed/seed.ts';
import type { TestServer } from '../support/test-server.ts';

/** A benchmark world: its own PostgreSQL, a database with many courses, the built shop serving it. */
export interface BenchWorld {
  baseUrl: string;
  /** The first server's process id (to read its memory). */
  serverPid: number;
  database: Db;
  databaseUrl: string;
  /** Another server process on the same database, with extra settings (e.g. Stripe keys). */
  startServer(extraEnv: Record<string, string>): Promise<{ baseUrl: string; pid: number; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

const SECRET = randomBytes(32).toString('base64url');

const BENCH_DATA_DIR = '.data/bench';
const BENCH_DATABASE = 'shop_bench';

export async function startBenchWorld({ courses }: { courses: number }): Promise<BenchWorld> {
  const postgres = await startEmbeddedPostgres({ dataDir: BENCH_DATA_DIR });
  const admin = createDb(postgres.url, 1);
  await sql`DROP DATABASE IF EXISTS ${sql.id(BENCH_DATABASE)} WITH (FORCE)`.execute(admin);
  await sql`CREATE DATABASE ${sql.id(BENCH_DATABASE)}`.execute(admin);
  await admin.destroy();

  const databaseUrl = withDatabase(postgres.url, BENCH_DATABASE);
  process.env.DATA_DIR = BENCH_DATA_DIR;
  const database = createDb(databaseUrl, 4);
  await migrate(database);
  await seedDemoData(database);
  await insertGeneratedCourses(database, courses);

  const startServer = async (extraEnv: Record<string, string> = {}) => {
    const port = await findFreePort();
    // Production checks that the build is current (the bench built it), as a deploy's start does.
    const child = spawn(process.execPath, ['functions/cli/start.ts'], {
      env: {
        ...process.env,
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
    await waitForOutput(child, 'Shop ready');
    return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
  };
  const main = await startServer();
  const extra: { stop(): Promise<void> }[] = [];
  return {
    baseUrl: main.baseUrl,
    serverPid: main.pid,
    database,
    databaseUrl,
    async startServer(extraEnv) {
      const server = await startServer(extraEnv);
      extra.push(server);
      return server;
    },
    async stop() {
      for (const server of [...extra, main]) await server.stop();
      await database.destroy();
      await postgres.stop();
    },
  };
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

/** The same file served by the smallest reasonable Node static server: the baseline for "as fast as static". */
export async function startStaticBaseline(file: string): Promise<{ url: string; stop(): Promise<void> }> {
  const body = await readFile(path.resolve(file));
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
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
    child.once('exit', (code) => reject(new Error(`Server exited with ${code}`)));
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
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
