import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { startBenchWorld, startStaticBaseline } from './bench-server.ts';

/**
 * `npm run bench`: the built shop on real PostgreSQL with 10,000+ courses, measured with autocannon.
 * Prints req/s and latency per page, and what each page makes a browser download.
 */
const COURSES = 10_000;
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);

buildIfNeeded();
const world = await startBenchWorld({ courses: COURSES });
const baseline = await startStaticBaseline('dist/client/en/about/index.html');
try {
  await measure();
} finally {
  // Whatever happens, the servers and the database started above are stopped.
  await baseline.stop();
  await world.stop();
}

async function measure(): Promise<void> {
  const courseId = (
    await world.database
      .selectFrom('courses')
      .select('id')
      .where('is_active', '=', true)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
  ).id;

  const targets = [
    { name: 'static file, minimal Node server (baseline)', url: baseline.url },
    { name: 'static page /en/about', url: `${world.baseUrl}/en/about` },
    { name: 'home /en/', url: `${world.baseUrl}/en/` },
    { name: 'catalogue HTML /en/courses', url: `${world.baseUrl}/en/courses` },
    { name: 'catalogue HTML, Turkish search', url: `${world.baseUrl}/tr/courses?search=istanbul&difficulty=beginner` },
    { name: 'catalogue JSON /api/courses', url: `${world.baseUrl}/api/courses?lang=en&maxPrice=20` },
    { name: 'course detail', url: `${world.baseUrl}/en/course/${courseId}` },
    { name: 'blog list /tr/blog', url: `${world.baseUrl}/tr/blog` },
    { name: 'blog article', url: `${world.baseUrl}/en/blog/first-monthly-budget` },
  ];

  console.log(
    `\nBench: ${COURSES.toLocaleString('en')} generated courses + demo catalogue, ${CONNECTIONS} connections, ${DURATION_S} s each\n`,
  );
  const rows: { page: string; 'req/s': number; 'p50 ms': number; 'p99 ms': number; errors: number }[] = [];
  for (const target of targets) {
    const result = await autocannon({
      url: target.url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    const errors = result.errors + result.timeouts + result.non2xx;
    rows.push({
      page: target.name,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      errors,
    });
  }
  console.table(rows);
  const rate = (name: string) => rows.find((row) => row.page.startsWith(name))!['req/s'];
  console.log(`static page vs minimal Node static server: ${(rate('static page') / rate('static file')).toFixed(2)}×`);
  console.log(
    `blog list vs static page: ${(rate('blog list') / rate('static page')).toFixed(2)}×; blog article vs static page: ${(rate('blog article') / rate('static page')).toFixed(2)}×`,
  );

  await measureTwoInstances();
  await measureCacheMemory();

  console.log('\nWhat a first visit downloads (compressed):');
  console.table(
    await Promise.all(targets.slice(1).map(async (target) => ({ page: target.name, ...(await pageWeight(target.url)) }))),
  );
}

/**
 * The same load on one instance, then split across two instances on the same database (as behind a
 * load balancer): a cached page, and an uncached endpoint that queries PostgreSQL.
 */
async function measureTwoInstances(): Promise<void> {
  const second = await world.startServer({});
  const run = (url: string, connections: number) =>
    autocannon({ url, connections, duration: DURATION_S, headers: { 'accept-encoding': 'br, gzip' } });
  const rows: { page: string; instances: number; 'req/s': number; 'p99 ms': number; errors: number }[] = [];
  for (const path of ['/en/courses', '/api/health']) {
    const one = await run(`${world.baseUrl}${path}`, CONNECTIONS);
    const both = await Promise.all([
      run(`${world.baseUrl}${path}`, CONNECTIONS / 2),
      run(`${second.baseUrl}${path}`, CONNECTIONS / 2),
    ]);
    const errors = (results: autocannon.Result[]) => results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0);
    rows.push({
      page: path,
      instances: 1,
      'req/s': Math.round(one.requests.average),
      'p99 ms': one.latency.p99,
      errors: errors([one]),
    });
    rows.push({
      page: path,
      instances: 2,
      'req/s': Math.round(both.reduce((sum, r) => sum + r.requests.average, 0)),
      'p99 ms': Math.max(...both.map((r) => r.latency.p99)),
      errors: errors(both),
    });
  }
  console.log(
    `\nOne instance, then two on the same database (${CONNECTIONS} connections in all, load generator on the same cores):`,
  );
  console.table(rows);
}

/** The page cache under 10,000 distinct filtered catalogue URLs: memory stays within its byte budget. */
async function measureCacheMemory(): Promise<void> {
  const rss = async () => Number((await readFile(`/proc/${world.serverPid}/status`, 'utf8')).match(/VmRSS:\s+(\d+)/)![1]) / 1024;
  const before = await rss();
  const urls = Array.from({ length: 10_000 }, (_, n) => `${world.baseUrl}/en/courses?search=course+${n}&maxPrice=${n % 500}`);
  const startedAt = performance.now();
  const row: Record<string, string | number> = { 'RSS before MB': Math.round(before) };
  for (let next = 0; next < urls.length; next += 25) {
    await Promise.all(
      urls.slice(next, next + 25).map((url) => fetch(url, { headers: { 'accept-encoding': 'br' } }).then((r) => r.arrayBuffer())),
    );
    if ((next + 25) % 2500 === 0) row[`after ${(next + 25).toLocaleString('en')}`] = Math.round(await rss());
  }
  row.seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(
    '\nPage cache under 10,000 distinct filtered catalogue URLs (budget: 64 MB of bodies and variants); server RSS in MB:',
  );
  console.table([row]);
}

/** Bytes of the HTML and every script and stylesheet it loads, as sent with brotli. */
async function pageWeight(url: string): Promise<{ 'html KB': string; 'js KB': string; 'css KB': string; 'total KB': string }> {
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
