import { sql } from 'kysely';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { Running } from '../../functions/cli/services.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import { generateLoad, startBenchWorld, type BenchServer, type BenchWorld, type Load } from './bench-server.ts';
import { guest, paidCourseId, payDemo, percentiles, startCheckout, type Guest } from './buyers.ts';

/**
 * `npm run bench` (issue 38, a load test across instances): three instances on one PostgreSQL behind
 * a load balancer (tests/bench/balancer.ts, on node:http: nginx is not installed everywhere), readers
 * and buyers through it, and one instance killed with SIGKILL a third of the way in. Goals: 0 lost
 * purchases (every buyer told "paid" has a completed purchase), 0 lost mails (every completed purchase's
 * mail reaches the SMTP server, once), reads without errors. Buyers do what a browser or a payment
 * provider does when the answer is a 502: send again. Short mode (`BENCH_SHORT=1`, in
 * `npm run bench:short`): 500 courses, 6 s of load.
 */
const SHORT = process.env.BENCH_SHORT === '1';
const INSTANCES = 3;
const COURSES = SHORT ? 500 : 10_000;
const LOAD_S = SHORT ? 6 : 20;
const READ_CONNECTIONS = 20;
const BUYERS_AT_ONCE = 10;
const TRIES = 5;
/** Mail claimed by the killed instance is sent again once its claim expires (functions/mail/worker.ts, 120 s). */
const MAIL_WAIT_MS = (SHORT ? 30 : 150) * 1000;

buildIfNeeded();
process.env.DATA_DIR = '.data/bench';
const running = new Running();
running.stopOnSignals();
const problems: string[] = [];
try {
  const smtp = await startSmtpServer();
  running.add('SMTP server', () => smtp.stop());
  const balancer = await startBalancer();
  running.add('load balancer', () => balancer.stop());
  const settings = { SMTP_URL: smtp.url, TRUST_PROXY: 'true', PUBLIC_SITE_URL: balancer.url };
  const world = await startBenchWorld({ courses: COURSES, serverEnv: settings });
  running.add('bench world', () => world.stop());
  const others = await Promise.all(Array.from({ length: INSTANCES - 1 }, () => world.startServer(settings)));
  balancer.setUpstreams([world.baseUrl, ...others.map((server) => server.baseUrl)]);
  await measure(world, balancer, others[0]!, smtp);
} finally {
  await running.stopAll();
}
if (problems.length > 0) {
  console.error(`\nThe bench found problems:\n${problems.map((line) => `  ✗ ${line}`).join('\n')}`);
  process.exit(1);
}

interface BuyerOutcome {
  buyer: Guest;
  paid: boolean;
  ms: number;
  /** Requests sent again after a 502 or a dropped connection. */
  resent: number;
}

async function measure(
  world: BenchWorld,
  balancer: Balancer,
  victim: BenchServer,
  smtp: Awaited<ReturnType<typeof startSmtpServer>>,
): Promise<void> {
  const course = { id: await paidCourseId(world) };
  const started = performance.now();
  const until = started + LOAD_S * 1000;
  let killedAtS = 0;
  const kill = (async () => {
    await new Promise((resolve) => setTimeout(resolve, (LOAD_S * 1000) / 3));
    process.kill(victim.pid, 'SIGKILL');
    killedAtS = (performance.now() - started) / 1000;
  })();
  const [catalogue, coursePage, buyers] = await Promise.all([
    generateLoad(`${balancer.url}/en/courses`, process.pid, READ_CONNECTIONS, LOAD_S),
    generateLoad(`${balancer.url}/en/course/${course.id}`, process.pid, READ_CONNECTIONS, LOAD_S),
    buyWhileLoaded(balancer.url, course.id, until),
  ]);
  await kill;

  const emails = buyers.map((outcome) => outcome.buyer.email);
  const completed = new Set(
    (
      await world.database
        .selectFrom('purchases')
        .select('email')
        .where('status', '=', 'completed')
        .where('email', 'in', emails)
        .execute()
    ).map((row) => row.email),
  );
  const lostPurchases = buyers.filter((outcome) => outcome.paid && !completed.has(outcome.buyer.email)).length;
  const mail = await mailOutcome(world, [...completed], smtp);

  const reads = [
    { page: '/en/courses', ...catalogue },
    { page: `/en/course/…`, ...coursePage },
  ].map(({ page, ...load }: Load & { page: string }) => ({
    reads: page,
    'req/s': load['req/s'],
    'p50 ms': load['p50 ms'],
    'p99 ms': load['p99 ms'],
    errors: load.errors,
    goal: '0 errors',
  }));
  const paid = buyers.filter((outcome) => outcome.paid);
  console.log(
    `\n${INSTANCES} instances on one PostgreSQL behind a load balancer (node:http, tests/bench/balancer.ts), ${COURSES.toLocaleString('en')} courses, ${LOAD_S} s of load; one instance killed (SIGKILL) at ${killedAtS.toFixed(1)} s:`,
  );
  console.table(reads);
  console.table([
    {
      buyers: buyers.length,
      'told paid': paid.length,
      'completed purchases': completed.size,
      'lost purchases (goal 0)': lostPurchases,
      'requests sent again by buyers': buyers.reduce((sum, outcome) => sum + outcome.resent, 0),
      ...percentiles(paid.map((outcome) => outcome.ms)),
    },
  ]);
  console.table([mail]);
  console.log(
    `Load balancer: ${balancer.stats.retried} requests sent again to another instance, an instance left out ${balancer.stats.markedDown} times, ${balancer.stats.failed} answered 502`,
  );
  if (reads.some((row) => row.errors > 0)) problems.push('reads failed while an instance was killed');
  if (lostPurchases > 0) problems.push(`${lostPurchases} buyers told "paid" have no completed purchase`);
  if (paid.length < buyers.length) problems.push(`${buyers.length - paid.length} buyers could not pay in ${TRIES} tries`);
  if (mail['lost mails (goal 0)'] > 0) problems.push(`${mail['lost mails (goal 0)']} purchase mails lost`);
  if (mail['sent twice'] > 0) problems.push(`${mail['sent twice']} mails sent twice`);
}

/** Guest buyers, BUYERS_AT_ONCE at a time, until `until`. */
async function buyWhileLoaded(baseUrl: string, courseId: string, until: number): Promise<BuyerOutcome[]> {
  const outcomes: BuyerOutcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: BUYERS_AT_ONCE }, async () => {
      while (performance.now() < until)
        outcomes.push(await buyAgainOnFailure(baseUrl, courseId, guest(next++, 'instances-buyer')));
    }),
  );
  return outcomes;
}

/** A buyer's checkout and payment, each sent again (up to TRIES times) when the answer is a 502 or none. */
async function buyAgainOnFailure(baseUrl: string, courseId: string, buyer: Guest): Promise<BuyerOutcome> {
  const started = performance.now();
  let resent = 0;
  const withTries = async (send: () => Promise<Response>): Promise<Response | undefined> => {
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      const response = await send().catch(() => undefined);
      if (response && response.status !== 502) return response;
      await response?.arrayBuffer();
      resent++;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return undefined;
  };
  const checkout = await withTries(() => startCheckout(baseUrl, courseId, buyer));
  if (!checkout?.ok) {
    if (checkout) problems.push(`checkout answered ${checkout.status}: ${(await checkout.text()).slice(0, 200)}`);
    return { buyer, paid: false, ms: performance.now() - started, resent };
  }
  const { redirectUrl } = (await checkout.json()) as { redirectUrl: string };
  const payment = await withTries(() => payDemo(baseUrl, redirectUrl, buyer));
  await payment?.arrayBuffer();
  if (payment && !payment.ok) problems.push(`the demo payment answered ${payment.status}`);
  return { buyer, paid: payment?.ok === true, ms: performance.now() - started, resent };
}

/**
 * Waits until the purchases' mail has left (or only mail claimed by the killed instance is left, waiting
 * for its claim to expire), then compares the outbox with what the SMTP server received.
 */
async function mailOutcome(world: BenchWorld, emails: string[], smtp: Awaited<ReturnType<typeof startSmtpServer>>) {
  const rows = () =>
    world.database
      .selectFrom('mail_outbox')
      .select(['recipient', 'status', sql<boolean>`locked_until > now()`.as('claimed')])
      .where('recipient', 'in', emails.length > 0 ? emails : [''])
      .execute();
  const deadline = Date.now() + MAIL_WAIT_MS;
  let outbox = await rows();
  // The short mode does not wait out the killed instance's claims (120 s); the full one does.
  const unsettled = (row: (typeof outbox)[number]) => row.status === 'pending' && (!SHORT || !row.claimed);
  while (Date.now() < deadline && outbox.some(unsettled)) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    outbox = await rows();
  }
  const received = new Map<string, number>();
  for (const message of smtp.messages) for (const to of message.to) received.set(to, (received.get(to) ?? 0) + 1);
  const queued = new Map<string, number>();
  for (const row of outbox) queued.set(row.recipient, (queued.get(row.recipient) ?? 0) + 1);
  const waiting = outbox.filter((row) => row.status === 'pending' && row.claimed).length;
  const undelivered = [...queued].reduce((sum, [email, n]) => sum + Math.max(0, n - (received.get(email) ?? 0)), 0);
  const lost = emails.filter((email) => !queued.has(email)).length + Math.max(0, undelivered - waiting);
  return {
    'purchase mails queued': outbox.length,
    'received by SMTP': emails.reduce((sum, email) => sum + (received.get(email) ?? 0), 0),
    'claimed by the killed instance, sent after its claim expires': waiting,
    'lost mails (goal 0)': lost,
    'sent twice': [...queued].reduce((sum, [email, n]) => sum + Math.max(0, (received.get(email) ?? 0) - n), 0),
  };
}
