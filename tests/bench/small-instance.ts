import { readFileSync } from 'node:fs';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { Running } from '../../functions/cli/services.ts';
import { pageCacheBytes } from '../../functions/http/page-cache.ts';
import { IDLE_WORKER_MS } from '../../functions/pdf/pdf-job.ts';
import { storageFor } from '../../functions/storage/storage.ts';
import { fakeS3Settings, startFakeS3 } from '../support/fake-s3.ts';
import { generateLoad, rssMb, startBenchWorld, watchPeakRss, type BenchServer, type BenchWorld } from './bench-server.ts';
import { buy, courseWithBuyers, firstDownload, paidCourseId, percentiles } from './buyers.ts';
import { makeLargePdf } from './large-pdf.ts';

/**
 * `npm run bench` (issue 38, small instances): one server process as a small instance runs it, on a
 * PostgreSQL of its own (`BENCH_DATABASE_URL`, or an embedded one in other processes: never counted)
 * and files in an S3-compatible bucket (a local fake S3 in the bench's process). Its RSS at rest (after
 * a warm-up and a full garbage collection, asked through the inspector of this bench's server only) and
 * its peak through the catalogue at 10,000 courses, a flood of 10,000 distinct URLs, 50 checkouts at
 * once and 50 buyers' first downloads of a 45 MB course, beside the goals (< 256 MB, < 512 MB).
 * `INSTANCE_MB` (512) is the instance simulated: the page cache a sixteenth of it, as the shop picks it
 * from a container's limit, and V8's old space a quarter, as Node picks it there.
 * Short mode (`BENCH_SHORT=1`, in `npm run bench:short`): 500 courses, 200 URLs, 10 checkouts, 5 downloads of 5 MB;
 * it fails when a request fails, not when a goal is missed on a busy machine.
 */
const SHORT = process.env.BENCH_SHORT === '1';
const INSTANCE_MB = Number(process.env.INSTANCE_MB ?? 512);
const COURSES = SHORT ? 500 : 10_000;
const DISTINCT_URLS = SHORT ? 200 : 10_000;
const CHECKOUTS = SHORT ? 10 : 50;
const DOWNLOADS = SHORT ? 5 : 50;
const PDF_MB = SHORT ? 5 : 45;
const LOAD_S = SHORT ? 1 : 5;
const REST_GOAL_MB = 256;
const PEAK_GOAL_MB = 512;
const MEGABYTE = 1024 * 1024;

buildIfNeeded();
process.env.DATA_DIR = '.data/bench';
const running = new Running();
running.stopOnSignals();
const problems: string[] = [];
try {
  const world = await startBenchWorld({ courses: COURSES });
  running.add('bench world', () => world.stop());
  const fake = await startFakeS3();
  running.add('fake S3', () => fake.stop());
  const settings = fakeS3Settings(fake);
  const server = await world.startServer(
    {
      ...settings,
      TRUST_PROXY: 'true',
      PAGE_CACHE_MB: String(pageCacheBytes(undefined, INSTANCE_MB * MEGABYTE) / MEGABYTE),
      NODE_OPTIONS: `--max-old-space-size=${Math.floor(INSTANCE_MB / 4)}`,
    },
    { inspectable: true },
  );
  const bucket = storageFor({ ...settings, S3_FORCE_PATH_STYLE: true });
  await measure(world, server, (key, data) => bucket.put('private', key, data));
} finally {
  await running.stopAll();
}
if (problems.length > 0) {
  console.error(`\nThe bench found problems:\n${problems.map((line) => `  ✗ ${line}`).join('\n')}`);
  process.exit(1);
}

type Put = (key: string, data: Buffer) => Promise<unknown>;

async function measure(world: BenchWorld, server: BenchServer, put: Put): Promise<void> {
  const course = { id: await paidCourseId(world) };
  const pages = [
    '/en/',
    '/en/courses',
    '/tr/courses?search=istanbul',
    '/api/courses?lang=en',
    `/en/course/${course.id}`,
    '/tr/blog',
  ];
  // Warm-up: every kind of request once or twice, so what is loaded lazily is loaded.
  for (const page of pages) for (let n = 0; n < 3; n++) await get(`${server.baseUrl}${page}`);
  for (let n = 0; n < 3; n++) await buy(server.baseUrl, course.id, 9000 + n, problems);
  const restBefore = await atRest(server);

  const phases: Record<string, string | number>[] = [];
  const phase = async (name: string, work: () => Promise<string>) => {
    const peak = watchPeakRss(server.pid, 20);
    const started = performance.now();
    const outcome = await work();
    peak.stop();
    phases.push({
      phase: name,
      outcome,
      s: +((performance.now() - started) / 1000).toFixed(1),
      'peak RSS MB': peak.peakMb(),
      'RSS after MB': rssMb(server.pid),
    });
  };
  await phase(`catalogue pages, ${LOAD_S} s each at 50 connections`, () => catalogue(server, pages));
  await phase(`${DISTINCT_URLS.toLocaleString('en')} distinct catalogue URLs, 25 at a time`, () => flood(server));
  await phase(`${CHECKOUTS} checkouts at once (checkout + pay)`, () => checkouts(server, course.id));
  await phase(`${DOWNLOADS} buyers' first downloads at once of a ${PDF_MB} MB course (S3)`, () =>
    firstDownloads(world, server, put),
  );
  const restAfter = await atRest(server);
  const peak = Math.max(...phases.map((row) => Number(row['peak RSS MB'])));

  console.log(
    `\nSmall instance: one server process as a ${INSTANCE_MB} MB instance runs it (page cache ${pageCacheBytes(undefined, INSTANCE_MB * MEGABYTE) / MEGABYTE} MB, V8 old space ${Math.floor(INSTANCE_MB / 4)} MB), ${COURSES.toLocaleString('en')} courses, files in S3 (a local fake), PostgreSQL in processes of its own (not counted):`,
  );
  console.table(phases);
  console.table([
    {
      'server RSS': 'at rest after warm-up and a full GC',
      ...restBefore,
      goal: `< ${REST_GOAL_MB}`,
      met: restBefore.MB < REST_GOAL_MB,
    },
    { 'server RSS': 'peak through every phase', MB: peak, goal: `< ${PEAK_GOAL_MB}`, met: peak < PEAK_GOAL_MB },
    {
      'server RSS': 'at rest after the bench and a full GC',
      ...restAfter,
      goal: `< ${REST_GOAL_MB}`,
      met: restAfter.MB < REST_GOAL_MB,
    },
  ]);
}

/**
 * The server's RSS at rest: once an idle PDF worker has ended (a buyer's first download starts one) and a
 * full, compacting garbage collection ran, with a moment between to give pages back. Beside it, what it
 * is made of: V8's heap, the memory outside it that JavaScript holds (buffers: the page cache's bodies,
 * the build's files), the pages of the Node binary and libraries read from disk (shared, given back by
 * the kernel when memory runs short), and the rest (the allocator's arenas, compiled code, stacks).
 */
async function atRest(
  server: BenchServer,
): Promise<{ MB: number; 'of which V8 heap / external / file pages / other MB': string }> {
  await new Promise((resolve) => setTimeout(resolve, IDLE_WORKER_MS));
  await server.collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const node = await server.collectGarbage();
  const rss = rssMb(server.pid);
  const files = filePagesMb(server.pid);
  return {
    MB: rss,
    'of which V8 heap / external / file pages / other MB': `${node.heapTotal} / ${node.external} / ${files} / ${rss - node.heapTotal - node.external - files}`,
  };
}

/** A process's resident pages that are files' (its binary and libraries), not anonymous memory, in MB. */
function filePagesMb(pid: number): number {
  const kb = (name: string) =>
    Number(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return Math.round((kb('Rss') - kb('Anonymous')) / 1024);
}

async function get(url: string): Promise<number> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'br' } });
  await response.arrayBuffer();
  if (!response.ok) problems.push(`${url} answered ${response.status}`);
  return response.status;
}

async function catalogue(server: BenchServer, pages: string[]): Promise<string> {
  let requests = 0;
  for (const page of pages) {
    const load = await generateLoad(`${server.baseUrl}${page}`, server.pid, 50, LOAD_S);
    if (load.errors > 0) problems.push(`${page}: ${load.errors} errors under load`);
    requests += load['req/s'] * LOAD_S;
  }
  return `${requests.toLocaleString('en')} requests`;
}

async function flood(server: BenchServer): Promise<string> {
  for (let next = 0; next < DISTINCT_URLS; next += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, n) =>
        get(`${server.baseUrl}/en/courses?search=course+${next + n}&maxPrice=${(next + n) % 500}`),
      ),
    );
  }
  return `${DISTINCT_URLS.toLocaleString('en')} pages rendered`;
}

async function checkouts(server: BenchServer, courseId: string): Promise<string> {
  const results = await Promise.all(Array.from({ length: CHECKOUTS }, (_, n) => buy(server.baseUrl, courseId, n, problems)));
  const { 'p50 ms': p50, 'p99 ms': p99 } = percentiles(results.map((result) => result.ms));
  return `${results.filter((result) => result.ok).length}/${CHECKOUTS} paid, p50 ${p50} ms, p99 ${p99} ms`;
}

async function firstDownloads(world: BenchWorld, server: BenchServer, put: Put): Promise<string> {
  const pdf = await makeLargePdf({ pages: 300, targetBytes: PDF_MB * MEGABYTE });
  const purchases = await courseWithBuyers(world, (_visibility, key, data) => put(key, data), pdf, DOWNLOADS);
  const downloads = await Promise.all(purchases.map((purchaseId) => firstDownload(world, server.baseUrl, purchaseId)));
  const complete = downloads.filter((download) => download.status === 200 && download.bytes > pdf.length).length;
  if (complete !== DOWNLOADS) problems.push(`${DOWNLOADS - complete} first downloads did not complete`);
  return `${complete}/${DOWNLOADS} complete, ${new Set(downloads.map((download) => download.sha256)).size} distinct stamped copies`;
}
