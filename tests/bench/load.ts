import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { putFile } from '../../functions/storage/storage.ts';
import { startBenchWorld, type BenchWorld } from './bench-server.ts';
import { signedEvent, startFakeStripe } from '../support/fake-stripe.ts';

/**
 * `npm run bench` (second part): the money paths under load, on the built server and real PostgreSQL.
 * Prints figures; stops by itself; never part of `npm test`.
 */
const BUYERS = 50;
const WEBHOOKS = 1000;
const WEBHOOK_CONCURRENCY = 50;
const DOWNLOADS = 100;
const PDF_BYTES = 20 * 1024 * 1024;
const BRUTE_FORCE_ATTEMPTS = 1000;
const OWNER_DEVICE = '198.51.100.7';

buildIfNeeded();
process.env.DATA_DIR = '.data/bench';
const world = await startBenchWorld({ courses: 10_000 });
// Behind a proxy, as a real shop: each simulated buyer or attacker has an address of its own.
const proxied = await world.startServer({ TRUST_PROXY: 'true' });
const stripe = await startFakeStripe();
try {
  await checkoutLoad({ ...world, baseUrl: proxied.baseUrl });
  await webhookLoad(world);
  await downloadLoad(world);
  await bruteForce(world);
} finally {
  await stripe.stop();
  await world.stop();
}

async function checkoutLoad({ baseUrl, database }: BenchWorld): Promise<void> {
  const course = await database
    .selectFrom('courses')
    .select('id')
    .where('price_minor', '>', 0)
    .where('currency', '=', 'USD')
    .executeTakeFirstOrThrow();
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: BUYERS }, async (_, n) => {
      const t0 = performance.now();
      const response = await fetch(`${baseUrl}/api/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': `198.51.100.${n + 1}` },
        body: JSON.stringify({
          courseId: course.id,
          email: `load-buyer-${n}-${randomUUID().slice(0, 6)}@example.com`,
          fullName: 'Load Buyer',
          language: 'en',
        }),
      });
      const { redirectUrl } = (await response.json()) as { redirectUrl: string };
      const paid = await fetch(`${baseUrl}/api/checkout/demo/${redirectUrl.split('/').pop()}`, {
        method: 'POST',
        headers: { origin: baseUrl, 'x-forwarded-for': `198.51.100.${n + 1}` },
      });
      return { ms: performance.now() - t0, ok: response.ok && paid.ok };
    }),
  );
  const completed = await database
    .selectFrom('purchases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'completed')
    .where('email', 'like', 'load-buyer-%')
    .executeTakeFirstOrThrow();
  console.log(`\nCheckout, demo provider: ${BUYERS} concurrent buyers (checkout + pay)`);
  console.table([
    {
      buyers: BUYERS,
      ok: results.filter((r) => r.ok).length,
      'completed purchases': Number(completed.n),
      ...percentiles(results.map((r) => r.ms)),
      'total s': ((performance.now() - started) / 1000).toFixed(1),
    },
  ]);
}

async function webhookLoad(world: BenchWorld): Promise<void> {
  const server = await world.startServer({
    ...stripe.settings,
  });
  const course = await world.database
    .selectFrom('courses')
    .select(['id', 'price_minor', 'currency'])
    .where('price_minor', '>', 0)
    .where('currency', '=', 'USD')
    .executeTakeFirstOrThrow();
  const orders = await world.database
    .insertInto('purchases')
    .values(
      Array.from({ length: WEBHOOKS }, (_, n) => ({
        course_id: course.id,
        email: `hook-${n}@example.com`,
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
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WEBHOOK_CONCURRENCY }, async () => {
      while (next < events.length) {
        const event = events[next++]!;
        const t0 = performance.now();
        const response = await fetch(`${server.baseUrl}/api/stripe/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
          body: event.payload,
        });
        latencies.push(performance.now() - t0);
        if (!response.ok) failures++;
      }
    }),
  );
  const completed = await world.database
    .selectFrom('purchases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'completed')
    .where('email', 'like', 'hook-%')
    .executeTakeFirstOrThrow();
  const mails = await world.database
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('recipient', 'like', 'hook-%')
    .executeTakeFirstOrThrow();
  console.log(`\nStripe webhooks: ${WEBHOOKS} signed checkout.session.completed events at concurrency ${WEBHOOK_CONCURRENCY}`);
  console.table([
    {
      events: WEBHOOKS,
      failures,
      'completed purchases': Number(completed.n),
      'queued mails': Number(mails.n),
      ...percentiles(latencies),
      'events/s': Math.round(WEBHOOKS / ((performance.now() - started) / 1000)),
    },
  ]);
}

async function downloadLoad({ baseUrl, database, serverPid }: BenchWorld): Promise<void> {
  const course = await database.selectFrom('courses').select(['id']).where('price_minor', '=', 0).executeTakeFirstOrThrow();
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(PDF_BYTES - 16), Buffer.from('\n%%EOF\n')]);
  const key = `courses/bench-${randomUUID()}.pdf`;
  await putFile('private', key, pdf);
  // Random bytes are no PDF to stamp: this measures serving a stored file (stamped copies: tests/bench/stamp.ts).
  await database.updateTable('courses').set({ pdf_path: key, stamp_pdfs: false }).where('id', '=', course.id).execute();
  const token = randomBytes(32).toString('base64url');
  await database
    .insertInto('purchases')
    .values({
      course_id: course.id,
      email: 'big-download@example.com',
      provider: 'free',
      payment_id: `free_${Date.now()}_${randomUUID()}`,
      amount_minor: 0,
      currency: 'USD',
      status: 'completed',
      completed_at: new Date(),
      download_token: token,
    })
    .execute();
  const expected = createHash('sha256').update(pdf).digest('hex');
  const rssBefore = rssMb(serverPid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(serverPid))), 20);
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: DOWNLOADS }, async () => {
      const link = await fetch(`${baseUrl}/api/downloads/${token}`, { redirect: 'manual' });
      const file = await fetch(`${baseUrl}${link.headers.get('location')}`);
      const hash = createHash('sha256');
      for await (const chunk of file.body!) hash.update(chunk);
      return hash.digest('hex') === expected;
    }),
  );
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const counted = await database
    .selectFrom('purchases')
    .select('download_count')
    .where('download_token', '=', token)
    .executeTakeFirstOrThrow();
  console.log(`\nDownloads: ${DOWNLOADS} concurrent downloads of a ${PDF_BYTES / 1024 / 1024} MB file, stamping off`);
  console.table([
    {
      downloads: DOWNLOADS,
      'byte-identical': results.filter(Boolean).length,
      counted: counted.download_count,
      'server RSS before MB': rssBefore,
      'server RSS peak MB': rssPeak,
      'RSS growth MB': rssPeak - rssBefore,
      'MB/s': Math.round((DOWNLOADS * PDF_BYTES) / 1024 / 1024 / seconds),
    },
  ]);
}

async function bruteForce(world: BenchWorld): Promise<void> {
  const email = 'victim@example.com';
  await fetch(`${world.baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: world.baseUrl },
    body: JSON.stringify({ name: 'Victim', email, password: 'the real password 1' }),
  });
  const attempt = (baseUrl: string, headers: Record<string, string>, password = `guess-${randomUUID()}`) =>
    fetch(`${baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, ...headers },
      body: JSON.stringify({ email, password }),
    }).then((r) => r.status);
  // The owner has signed in before from their own device, behind the proxy.
  await attempt(proxied.baseUrl, { 'x-forwarded-for': OWNER_DEVICE }, 'the real password 1');
  const rows = [];
  for (const [name, baseUrl, headers] of [
    ['one address', world.baseUrl, () => ({})],
    [
      'spoofed X-Forwarded-For, a new address each time (TRUST_PROXY=false)',
      world.baseUrl,
      () => ({ 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250)}` }),
    ],
    [
      'a real new address each time, behind a proxy (a botnet)',
      proxied.baseUrl,
      () => ({ 'x-forwarded-for': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1` }),
    ],
  ] as const) {
    const statuses: number[] = [];
    for (let n = 0; n < BRUTE_FORCE_ATTEMPTS; n++) statuses.push(await attempt(baseUrl, headers()));
    rows.push({
      attacker: name,
      attempts: BRUTE_FORCE_ATTEMPTS,
      'password checked (401)': statuses.filter((s) => s === 401).length,
      'limited (429)': statuses.filter((s) => s === 429).length,
      other: statuses.filter((s) => s !== 401 && s !== 429).length,
    });
    await sql`DELETE FROM rate_limits`.execute(world.database);
  }
  const sameAddress = await attempt(world.baseUrl, {}, 'the real password 1');
  const ownDevice = await attempt(proxied.baseUrl, { 'x-forwarded-for': OWNER_DEVICE }, 'the real password 1');
  const newDevice = await attempt(proxied.baseUrl, { 'x-forwarded-for': '198.51.100.8' }, 'the real password 1');
  const link = await fetch(`${proxied.baseUrl}/api/auth/sign-in/magic-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: proxied.baseUrl, 'x-forwarded-for': '198.51.100.8' },
    body: JSON.stringify({ email }),
  });
  console.log(`\nSign-in brute force on one account (${BRUTE_FORCE_ATTEMPTS} wrong passwords per attacker)`);
  console.table(rows);
  console.log(
    `Right password afterwards: from the first attacking address HTTP ${sameAddress}; the owner on a device signed in before HTTP ${ownDevice}, on a new device HTTP ${newDevice}, a sign-in link from there HTTP ${link.status}`,
  );
}

function percentiles(values: number[]): { 'p50 ms': number; 'p99 ms': number; 'max ms': number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { 'p50 ms': at(0.5), 'p99 ms': at(0.99), 'max ms': Math.round(sorted.at(-1) ?? 0) };
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Math.round(Number(line?.[1] ?? 0) / 1024);
}
