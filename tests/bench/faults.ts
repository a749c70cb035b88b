import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { createDb } from '../../functions/db/database.ts';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from './bench-server.ts';
import { signedEvent, startFakeStripe } from '../support/fake-stripe.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { KILL_AFTER_TERM_MS, runRestartDrill, STOP_MODES, SUPERVISOR_STOP } from '../support/restart-drill.ts';

/**
 * `npm run faults`: the shop with its own embedded PostgreSQL, killed with SIGKILL at random moments
 * while Stripe events arrive, restarted each time; then every event is delivered again, as Stripe
 * would. Then an SMTP outage, then the restart drills. Prints what was lost or duplicated (target: nothing).
 */
const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 100);
const EVENTS_PER_ROUND = 10;
const DATA_DIR = '.data/faults';

buildIfNeeded();
await rm(DATA_DIR, { recursive: true, force: true });
const stripe = await startFakeStripe();
const pgPort = await findFreePort();
const port = await findFreePort();
const baseUrl = `http://127.0.0.1:${port}`;
const secret = randomBytes(32).toString('base64url');

function startShop(extraEnv: Record<string, string> = {}) {
  const env = {
    ...process.env,
    ENV_FILE: '',
    DATABASE_URL: '',
    PGPORT: String(pgPort),
    DATA_DIR,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: baseUrl,
    NODE_ENV: 'production',
    BETTER_AUTH_SECRET: secret,
    DEV_TOOLS: 'on',
    PRODUCTION_CHECKS: 'test-harness',
    // Each simulated buyer comes from an address of its own (X-Forwarded-For), as behind a proxy.
    TRUST_PROXY: 'true',
    ...stripe.settings,
    ...extraEnv,
  };
  // Production checks that the build is current (built above), as a deploy's start does.
  const child = spawn(process.execPath, ['functions/cli/start.ts'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  return { child, ready: waitForOutput(child, 'Shop ready', 60_000) };
}

const deliver = (event: ReturnType<typeof signedEvent>) =>
  fetch(`${baseUrl}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.payload,
  }).then(
    (r) => r.ok,
    () => false,
  );

// First start creates the database; orders are then written straight into it.
let shop = startShop();
await shop.ready;
console.log('Shop started on its own embedded PostgreSQL.');
const database = createDb(`postgres://postgres:postgres@127.0.0.1:${pgPort}/shop`, 2);
// Production never seeds demo courses: the drill brings a paid and a free one.
const [course, free] = (await database
  .insertInto('courses')
  .values([
    {
      title: 'Fault drill (paid)',
      description: 'Paid course for the fault drill.',
      category: 'business',
      instructor_name: 'Drill',
      price_minor: 500,
      currency: 'USD',
    },
    {
      title: 'Fault drill (free)',
      description: 'Free course for the fault drill.',
      category: 'business',
      instructor_name: 'Drill',
      price_minor: 0,
      currency: 'USD',
    },
  ])
  .returning(['id', 'price_minor', 'currency'])
  .execute()) as [{ id: string; price_minor: number; currency: string }, { id: string; price_minor: number; currency: string }];
const orders = await database
  .insertInto('purchases')
  .values(
    Array.from({ length: ROUNDS * EVENTS_PER_ROUND }, (_, n) => ({
      course_id: course.id,
      email: `fault-${n}@example.com`,
      provider: 'stripe' as const,
      payment_id: `cs_test_${randomBytes(16).toString('hex')}`,
      amount_minor: course.price_minor,
      currency: course.currency,
    })),
  )
  .returning(['id', 'payment_id'])
  .execute();
const events = orders.map((order) =>
  signedEvent({
    id: `evt_${randomUUID()}`,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: order.payment_id,
        object: 'checkout.session',
        payment_status: 'paid',
        amount_total: course.price_minor,
        currency: 'usd',
        metadata: { order_id: order.id },
        payment_intent: `pi_${randomBytes(8).toString('hex')}`,
      },
    },
  }),
);

// (b) and (d): kill during processing, restart, ROUNDS times.
const acknowledged = new Set<number>();
let restartFailures = 0;
const restartMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const batch = events.slice(round * EVENTS_PER_ROUND, (round + 1) * EVENTS_PER_ROUND);
  const deliveries = batch.map((event, index) =>
    deliver(event).then((ok) => ok && acknowledged.add(round * EVENTS_PER_ROUND + index)),
  );
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
  shop.child.kill('SIGKILL');
  await Promise.all(deliveries);
  if (shop.child.exitCode === null && shop.child.signalCode === null)
    await new Promise((resolve) => shop.child.once('exit', resolve));
  const t0 = performance.now();
  shop = startShop();
  try {
    await shop.ready;
    restartMs.push(performance.now() - t0);
  } catch {
    restartFailures++;
    shop = startShop();
    await shop.ready;
  }
  if ((round + 1) % 10 === 0) console.log(`  ${round + 1}/${ROUNDS} kills`);
}

// Stripe redelivers until acknowledged; we redeliver everything, which also proves duplicates are harmless.
let redeliveryFailures = 0;
for (const event of events) if (!(await deliver(event))) redeliveryFailures++;
const completed = await database
  .selectFrom('purchases')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('email', 'like', 'fault-%')
  .where('status', '=', 'completed')
  .executeTakeFirstOrThrow();
const { rows: duplicateMail } = await sql<{
  n: number;
}>`SELECT count(*)::int AS n FROM (SELECT recipient FROM mail_outbox WHERE recipient LIKE 'fault-%' GROUP BY recipient HAVING count(*) > 1) d`.execute(
  database,
);
const mails = await database
  .selectFrom('mail_outbox')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('recipient', 'like', 'fault-%')
  .executeTakeFirstOrThrow();
const ackedIds = [...acknowledged].map((index) => orders[index]!.id);
const lostAcked = ackedIds.length
  ? await database.selectFrom('purchases').select('id').where('id', 'in', ackedIds).where('status', '!=', 'completed').execute()
  : [];
const sortedRestarts = [...restartMs].sort((a, b) => a - b);
console.log(
  `\nSIGKILL during webhook processing: ${ROUNDS} kills, ${events.length} events (${EVENTS_PER_ROUND} in flight per kill)`,
);
console.table([
  {
    kills: ROUNDS,
    'acknowledged before a kill': acknowledged.size,
    'acknowledged but lost': lostAcked.length,
    'completed after redelivery': Number(completed.n),
    expected: events.length,
    'duplicate purchases': Math.max(0, Number(completed.n) - events.length),
    'materials mails': Number(mails.n),
    'recipients mailed twice': duplicateMail[0]!.n,
    'failed restarts': restartFailures,
    'redelivery failures': redeliveryFailures,
    'restart p50 ms': Math.round(sortedRestarts[Math.floor(sortedRestarts.length / 2)] ?? 0),
    'restart max ms': Math.round(sortedRestarts.at(-1) ?? 0),
  },
]);

// (c) SMTP unreachable for a while: checkout latency, then every mail exactly once after it returns.
await stopChild(shop.child);
const smtpPort = await findFreePort();
shop = startShop({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
await shop.ready;
const timeCheckouts = async (label: string) => {
  const times: number[] = [];
  for (let n = 0; n < 20; n++) {
    const t0 = performance.now();
    const response = await fetch(`${baseUrl}/api/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': `198.51.100.${n + 1}` },
      body: JSON.stringify({
        acceptTerms: true,
        courseId: free.id,
        email: `smtp-${label}-${n}@example.com`,
        fullName: 'Smtp Test',
        language: 'en',
      }),
    });
    if (!response.ok) throw new Error(`checkout failed: ${response.status}`);
    times.push(performance.now() - t0);
  }
  return Math.round(times.sort((a, b) => a - b)[10]!);
};
const downMs = await timeCheckouts('down');
const smtp = await startSmtpServer(smtpPort);
const upMs = await timeCheckouts('up');
await sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE status = 'pending'`.execute(database);
const deadline = Date.now() + 120_000;
while (Date.now() < deadline && smtp.messages.filter((m) => m.to.some((to) => to.startsWith('smtp-'))).length < 40)
  await new Promise((r) => setTimeout(r, 250));
const received = smtp.messages.flatMap((m) => m.to).filter((to) => to.startsWith('smtp-'));
console.log('\nSMTP unreachable, then back');
console.table([
  {
    'checkout p50 ms, SMTP down': downMs,
    'checkout p50 ms, SMTP up': upMs,
    'mails expected': 40,
    'mails received': received.length,
    'received twice': received.length - new Set(received).size,
  },
]);

await smtp.stop();
await stopChild(shop.child);
await database.destroy();
await stripe.stop();

// (e) Restart drill: stopped every way a supervisor or a person stops it, started again at once; then
// a supervisor's stop alone (SIGTERM, SIGKILL of the group 0–300 ms later), the stop that once left an
// empty lock file behind.
const RESTART_CYCLES = Number(process.env.RESTART_CYCLES ?? 20);
const TERM_KILL_ROUNDS = Number(process.env.TERM_KILL_ROUNDS ?? KILL_AFTER_TERM_MS.length * 3);
const everyStop = [...STOP_MODES, SUPERVISOR_STOP];
const drills = [
  {
    name: `${everyStop.join(', ')}, in turn`,
    result: await runRestartDrill({ cycles: RESTART_CYCLES, dataDir: '.data/restart-drill', modes: everyStop }),
  },
  {
    name: `SIGTERM, then SIGKILL of the group after ${KILL_AFTER_TERM_MS.join(', ')} ms in turn`,
    result: await runRestartDrill({
      cycles: TERM_KILL_ROUNDS,
      dataDir: '.data/restart-drill',
      modes: [SUPERVISOR_STOP],
    }),
  },
];
for (const { name, result: drill } of drills) {
  const sortedReady = [...drill.readyMs].sort((a, b) => a - b);
  console.log(`\nRestart drill: ${name}; each start at once after the stop`);
  console.table([
    {
      cycles: drill.cycles,
      'healthy within 10 s': `${drill.healthy}/${drill.cycles}`,
      'rows committed before a stop': drill.rowsWritten,
      'rows missing after restart': drill.rowsMissing,
      'ready p50 ms': Math.round(sortedReady[Math.floor(sortedReady.length / 2)] ?? 0),
      'ready max ms': Math.round(sortedReady.at(-1) ?? 0),
    },
  ]);
  console.table(Object.entries(drill.byMode).map(([mode, { stops, failures }]) => ({ stop: mode, rounds: stops, failures })));
  for (const failure of drill.failures) console.log(failure);
  if (drill.healthy !== drill.cycles || drill.rowsMissing > 0) process.exitCode = 1;
}
