import http from 'node:http';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { Running } from '../../functions/cli/services.ts';
import {
  generateLoad,
  rssMb,
  startBenchWorld,
  startNginxBaseline,
  startNodeBaseline,
  watchPeakRss,
  type BenchWorld,
  type Load,
} from './bench-server.ts';

/**
 * `npm run bench`: the built shop on real PostgreSQL with 10,000+ courses, loaded by autocannon in a
 * process of its own. Prints req/s, latency and CPU per request per page, each beside the same bytes
 * served by a bare Node server and by nginx (where installed) in the same run, and every goal beside
 * its figure. Short mode for CI (`BENCH_SHORT=1`, in `npm run test:sweep`): fewer courses and URLs,
 * 1 s per page; it fails when a page answers with errors, not when a goal is missed on a busy machine.
 */
const SHORT = process.env.BENCH_SHORT === '1';
const COURSES = SHORT ? 500 : 10_000;
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? (SHORT ? 1 : 8));
/** Rounds of the static comparison, alternating shop and baselines (the machine's load changes meanwhile). */
const ROUNDS = SHORT ? 1 : 3;
const MISSES = SHORT ? 50 : 500;
const DISTINCT_URLS = SHORT ? 500 : 10_000;
const PEAK_RSS_GOAL_MB = 400;

buildIfNeeded();
const running = new Running();
running.stopOnSignals();
const problems: string[] = [];
try {
  const world = await startBenchWorld({ courses: COURSES });
  running.add('bench world', () => world.stop());
  const peak = watchPeakRss(world.serverPid);
  running.add('memory sampler', () => Promise.resolve(peak.stop()));
  await measure(world, peak);
  console.log(
    `\nServer peak RSS through this bench: ${peak.peakMb()} MB (goal ≤ ${PEAK_RSS_GOAL_MB} MB, embedded database in its own processes)`,
  );
} finally {
  // Whatever happens, the servers and the database started above are stopped.
  await running.stopAll();
}
if (problems.length > 0) {
  console.error(`\nThe bench found problems:\n${problems.map((line) => `  ✗ ${line}`).join('\n')}`);
  process.exit(1);
}

async function measure(world: BenchWorld, peak: { peakMb(): number }): Promise<void> {
  // The server's RSS after each phase and its peak so far: which phase reached the peak.
  const memory: Record<string, string | number>[] = [];
  const after = (phase: string) =>
    memory.push({ phase, 'RSS after MB': rssMb(world.serverPid), 'peak so far MB': peak.peakMb() });
  const courseId = (
    await world.database
      .selectFrom('courses')
      .select('id')
      .where('is_active', '=', true)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
  ).id;
  console.log(
    `\nBench: ${COURSES.toLocaleString('en')} generated courses + demo catalogue, ${CONNECTIONS} connections, ${DURATION_S} s each, load generator in its own process\n`,
  );
  await measureStatic(world);
  after('static page and baselines');

  const pages = [
    { name: 'home /en/', path: '/en/' },
    { name: 'catalogue HTML /en/courses', path: '/en/courses' },
    { name: 'catalogue HTML, Turkish search', path: '/tr/courses?search=istanbul&difficulty=beginner' },
    { name: 'catalogue JSON /api/courses', path: '/api/courses?lang=en&maxPrice=20' },
    { name: 'course detail', path: `/en/course/${courseId}` },
    { name: 'blog list /tr/blog', path: '/tr/blog' },
    { name: 'blog article', path: '/en/blog/first-monthly-budget' },
  ];
  const rows: (Load & { page: string })[] = [];
  for (const page of pages) {
    rows.push({ page: page.name, ...(await load(`${world.baseUrl}${page.path}`, world.serverPid, CONNECTIONS)) });
  }
  after('cached pages');
  console.log('\nCached pages:');
  console.table(rows);
  await measureMisses(world);
  after('cache misses');
  await measureTwoInstances(world);
  after('two instances');
  await measureCacheMemory(world);
  after('distinct URLs');

  console.log('\nWhat a first visit downloads (compressed):');
  console.table(
    await Promise.all(
      [{ name: 'static page /en/about', path: '/en/about' }, ...pages].map(async (page) => ({
        page: page.name,
        ...(await pageWeight(`${world.baseUrl}${page.path}`)),
      })),
    ),
  );
  console.log(`\nServer memory by phase (goal: peak ≤ ${PEAK_RSS_GOAL_MB} MB):`);
  console.table(memory);
}

/** A load run; errors are the bench's problems (a page that fails under load is a broken page). */
async function load(url: string, pid: number, connections: number): Promise<Load> {
  const result = await generateLoad(url, pid, connections, DURATION_S);
  if (result.errors > 0) problems.push(`${url}: ${result.errors} errors or non-2xx answers under load`);
  return result;
}

/**
 * The cached static page against the same bytes (brotli, as a browser gets them) served by a bare
 * Node server and by nginx, alternating rounds, the best round of each kept.
 */
async function measureStatic(world: BenchWorld): Promise<void> {
  const page = await rawGet(`${world.baseUrl}/en/about`, { 'accept-encoding': 'br' });
  const contentHeaders = { 'Content-Type': page.headers['content-type']!, 'Content-Encoding': page.headers['content-encoding']! };
  const node = await startNodeBaseline(page.body, contentHeaders);
  running.add('Node baseline', () => node.stop());
  const nginx = await startNginxBaseline(page.body, contentHeaders);
  if (nginx) running.add('nginx baseline', () => nginx.stop());
  const targets = [
    { name: 'static page /en/about (the shop)', url: `${world.baseUrl}/en/about`, pid: world.serverPid },
    { name: 'same bytes, bare Node server', url: node.url, pid: node.pid },
    ...(nginx ? [{ name: 'same bytes, nginx (1 worker)', url: nginx.url, pid: nginx.pid }] : []),
  ];
  const best = new Map<string, Load>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const result = await load(target.url, target.pid, CONNECTIONS);
      const previous = best.get(target.name);
      if (!previous || result['req/s'] > previous['req/s']) best.set(target.name, result);
    }
  }
  console.log(
    `A cached static page and the same ${page.body.length} bytes served by baselines (best of ${ROUNDS} alternating rounds):`,
  );
  console.table(targets.map((target) => ({ server: target.name, ...best.get(target.name)! })));
  console.log(`Header bytes: the shop ${page.headerBytes}, the bare Node server ${(await rawGet(node.url, {})).headerBytes}`);
  const shop = best.get(targets[0]!.name)!;
  const ratio = (other: Load) =>
    `${(shop['req/s'] / other['req/s']).toFixed(2)}×, p99 ${shop['p99 ms']} vs ${other['p99 ms']} ms`;
  console.log(`static page vs bare Node server: ${ratio(best.get(targets[1]!.name)!)}`);
  if (nginx) console.log(`static page vs nginx: ${ratio(best.get(targets[2]!.name)!)} (goal ≥ 0.5×, p99 ≤ 2× nginx's)`);
  else console.log("static page vs nginx: not measured (no nginx); goal ≥ 0.5× nginx, p99 ≤ 2× nginx's");
}

/** Distinct catalogue filter URLs, one at a time: each a cache miss the server renders. */
async function measureMisses(world: BenchWorld): Promise<void> {
  const times: number[] = [];
  for (let n = 0; n < MISSES; n++) {
    const started = performance.now();
    const response = await fetch(`${world.baseUrl}/en/courses?search=miss+${n}&maxPrice=${n % 50}`, {
      headers: { 'accept-encoding': 'br' },
    });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (!response.ok) problems.push(`a catalogue miss answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => +times[Math.floor(q * (times.length - 1))]!.toFixed(1);
  console.log(
    `\nCache misses: ${MISSES} distinct catalogue filter URLs at ${COURSES.toLocaleString('en')} courses, one at a time:`,
  );
  console.table([{ 'p50 ms': at(0.5), 'p50 goal': '≤ 10', 'p95 ms': at(0.95), 'p95 goal': '≤ 20', 'max ms': at(1) }]);
}

/**
 * The same load on one instance, then split across two instances on the same database (as behind a
 * load balancer): a cached page, and an uncached endpoint that queries PostgreSQL.
 */
async function measureTwoInstances(world: BenchWorld): Promise<void> {
  const second = await world.startServer({});
  const rows: (Partial<Load> & { page: string; instances: number })[] = [];
  for (const path of ['/en/courses', '/api/health']) {
    const one = await load(`${world.baseUrl}${path}`, world.serverPid, CONNECTIONS);
    const both = await Promise.all([
      load(`${world.baseUrl}${path}`, world.serverPid, CONNECTIONS / 2),
      load(`${second.baseUrl}${path}`, second.pid, CONNECTIONS / 2),
    ]);
    rows.push({ page: path, instances: 1, ...one });
    rows.push({
      page: path,
      instances: 2,
      'req/s': both[0]['req/s'] + both[1]['req/s'],
      'p99 ms': Math.max(both[0]['p99 ms'], both[1]['p99 ms']),
      errors: both[0].errors + both[1].errors,
    });
  }
  await second.stop();
  console.log(`\nOne instance, then two on the same database (${CONNECTIONS} connections in all, all on the same cores):`);
  console.table(rows);
}

/** The page cache under many distinct filtered catalogue URLs: memory stays within its byte budget. */
async function measureCacheMemory(world: BenchWorld): Promise<void> {
  const before = rssMb(world.serverPid);
  const urls = Array.from(
    { length: DISTINCT_URLS },
    (_, n) => `${world.baseUrl}/en/courses?search=course+${n}&maxPrice=${n % 500}`,
  );
  const startedAt = performance.now();
  const row: Record<string, string | number> = { 'RSS before MB': before };
  const every = DISTINCT_URLS / 4;
  for (let next = 0; next < urls.length; next += 25) {
    await Promise.all(
      urls.slice(next, next + 25).map((url) => fetch(url, { headers: { 'accept-encoding': 'br' } }).then((r) => r.arrayBuffer())),
    );
    if ((next + 25) % every === 0) row[`after ${(next + 25).toLocaleString('en')}`] = rssMb(world.serverPid);
  }
  row.seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(
    `\nPage cache under ${DISTINCT_URLS.toLocaleString('en')} distinct filtered catalogue URLs (budget: 64 MB of bodies and variants); server RSS in MB:`,
  );
  console.table([row]);
}

/** A response as it came over the wire: undecoded body, headers, and the size of its header block. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Buffer; headers: http.IncomingHttpHeaders; headerBytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headerBytes =
            `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n`.length +
            response.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0) +
            2;
          resolve({ body: Buffer.concat(chunks), headers: response.headers, headerBytes });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Bytes of the HTML and every script and stylesheet it loads, as sent with brotli. */
async function pageWeight(url: string): Promise<{ 'html KB': string; 'js KB': string; 'css KB': string; 'total KB': string }> {
  // Asked once first: after the distinct-URL flood the page may be a fresh miss, sent before it is compressed.
  await fetchSize(url);
  const page = await fetchSize(url);
  const html = page.body;
  const origin = new URL(url).origin;
  const scripts = new Set(
    [...html.matchAll(/<script[^>]+src="([^"]+)"/g), ...html.matchAll(/(?:component|renderer)-url="([^"]+)"/g)].map((m) => m[1]!),
  );
  const styles = new Set([...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]!));
  const js = await totalImports([...scripts].map((src) => new URL(src, origin).href));
  const css = (await Promise.all([...styles].map((href) => fetchSize(new URL(href, origin).href)))).reduce(
    (sum, r) => sum + r.bytes,
    0,
  );
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  return { 'html KB': kb(page.bytes), 'js KB': kb(js), 'css KB': kb(css), 'total KB': kb(page.bytes + js + css) };
}

/** JavaScript modules and everything they statically import, each counted once. */
async function totalImports(entries: string[]): Promise<number> {
  const seen = new Set<string>();
  const queue = [...entries];
  let total = 0;
  while (queue.length) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const { bytes, body } = await fetchSize(next);
    total += bytes;
    for (const match of body.matchAll(/(?:import|from)\s*["']([^"']+\.js)["']/g)) queue.push(new URL(match[1]!, next).href);
  }
  return total;
}

async function fetchSize(url: string): Promise<{ bytes: number; body: string }> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'br' } });
  const body = await response.text();
  const encoded = response.headers.get('content-encoding') ? Number(response.headers.get('content-length') ?? 0) : 0;
  // fetch decompresses; measure the wire size by compressing like the server does when no length is sent.
  const { brotliCompressSync } = await import('node:zlib');
  return {
    bytes: encoded || (response.headers.get('content-encoding') ? brotliCompressSync(body).length : Buffer.byteLength(body)),
    body,
  };
}
