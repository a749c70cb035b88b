import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { Running } from '../../functions/cli/services.ts';
import { generateLoad, startBenchWorld, type Load } from './bench-server.ts';

/**
 * What counting the funnel costs (`npm run bench`, issue 40: the catalogue may lose at most 5 %): the
 * same cached pages, reached by tagged links (utm_*) as a browser asks for them, from a server that
 * counts course page views and one that does not (FUNNEL_COUNTING=off), on one database, in
 * alternating rounds (the machine's load changes meanwhile); the best round of each is kept and the
 * ratio printed. `BENCH_SHORT=1`: 500 courses, 1 s a run, one round.
 */
const SHORT = process.env.BENCH_SHORT === '1';
const COURSES = SHORT ? 500 : 10_000;
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? (SHORT ? 1 : 8));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (SHORT ? 1 : 3));
const GOAL_RATIO = 0.95;
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  referer: 'https://news.example.com/issue-12',
};

buildIfNeeded();
const running = new Running();
running.stopOnSignals();
const problems: string[] = [];
try {
  const world = await startBenchWorld({ courses: COURSES });
  running.add('bench world', () => world.stop());
  const off = await world.startServer({ FUNNEL_COUNTING: 'off' });
  const course = await world.database
    .selectFrom('courses')
    .select('id')
    .where('is_active', '=', true)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const tags = 'utm_source=newsletter&utm_medium=email&utm_campaign=spring';
  const pages = [
    { name: 'catalogue HTML, tagged', path: `/en/courses?${tags}` },
    { name: 'catalogue HTML, untagged', path: '/en/courses' },
    { name: 'course page, tagged (counted)', path: `/en/course/${course.id}?${tags}` },
  ];
  console.log(
    `\nFunnel counting on and off: ${COURSES.toLocaleString('en')} courses, ${CONNECTIONS} connections, ${DURATION_S} s a run, best of ${ROUNDS} alternating rounds\n`,
  );
  const rows = [];
  for (const page of pages) {
    const best = { on: undefined as Load | undefined, off: undefined as Load | undefined };
    for (let round = 0; round < ROUNDS; round++) {
      const counting = await generateLoad(`${world.baseUrl}${page.path}`, world.serverPid, CONNECTIONS, DURATION_S, BROWSER);
      const notCounting = await generateLoad(`${off.baseUrl}${page.path}`, off.pid, CONNECTIONS, DURATION_S, BROWSER);
      for (const load of [counting, notCounting])
        if (load.errors > 0) problems.push(`${page.path}: ${load.errors} errors under load`);
      if (!best.on || counting['req/s'] > best.on['req/s']) best.on = counting;
      if (!best.off || notCounting['req/s'] > best.off['req/s']) best.off = notCounting;
    }
    const ratio = best.on!['req/s'] / Math.max(1, best.off!['req/s']);
    rows.push({
      page: page.name,
      'on req/s': best.on!['req/s'],
      'off req/s': best.off!['req/s'],
      'on/off': ratio.toFixed(3),
      'goal ≥': GOAL_RATIO,
      'on p99 ms': best.on!['p99 ms'],
      'off p99 ms': best.off!['p99 ms'],
      'on CPU µs/req': best.on!['server CPU µs/req'],
      'off CPU µs/req': best.off!['server CPU µs/req'],
    });
  }
  console.table(rows);
  // The counts reach the database (the funnel-views job runs every JOBS_INTERVAL_MS): they were counted, not dropped.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const counted = await world.database
    .selectFrom('funnel_views')
    .select((eb) => eb.fn.sum<string>('views').as('views'))
    .where('course_id', '=', course.id)
    .executeTakeFirst();
  console.log(
    `Course page views counted in the database: ${Number(counted?.views ?? 0).toLocaleString('en')} (the counting server's tagged runs)`,
  );
  if (Number(counted?.views ?? 0) === 0) problems.push('the counting server counted no course page view');
} finally {
  await running.stopAll();
}
if (problems.length > 0) {
  console.error(`\nThe bench found problems:\n${problems.map((line) => `  ✗ ${line}`).join('\n')}`);
  process.exit(1);
}
