import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { sendWaitingUpdateNotices } from '../../functions/courses/course-update-notices.ts';
import { ensureUser } from '../../functions/auth/users.ts';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { makePdf, makePng } from '../support/files.ts';
import { Browser } from '../support/test-server.ts';
import { asTestServer, startBenchWorld } from './bench-server.ts';
import { courseFormFields } from '../support/factories.ts';

/**
 * `npm run bench` (course update notices, decision 28): saving a course with a new PDF and "notify
 * buyers" for 5,000 buyers, through the built server on real PostgreSQL.
 *  - Before (decision 17) the save rendered and queued every mail inside the request: its latency was
 *    the save plus the whole expansion. Measured here as the save with the first server's worker idle,
 *    followed at once by the same expansion code in this process (the work the old save did inline).
 *  - After: the save's own latency, and how long a second server's background worker takes to queue
 *    every mail after the save returned.
 */
const BUYERS = Number(process.env.BENCH_NOTICE_BUYERS ?? 5000);
const ROUNDS = 3;

buildIfNeeded();
// The first server's worker stays idle (first tick a minute away): "before" runs the expansion here.
process.env.JOBS_INTERVAL_MS = '60000';
// What this process needs to render the mails as a server would (the servers get their own values).
process.env.BETTER_AUTH_SECRET ??= randomBytes(32).toString('base64url');
process.env.PUBLIC_SITE_URL ??= 'http://127.0.0.1';
const world = await startBenchWorld({ courses: 0 });
try {
  const { database } = world;
  const server = asTestServer(world.baseUrl);
  const email = 'bench-notices-admin@example.com';
  await ensureUser(database, { email, password: 'correct horse 42', fullName: 'Bench Admin', role: 'admin' });
  const admin = new Browser(server, '127.0.0.1');
  const signIn = await admin.postJson('/api/auth/sign-in/email', { email, password: 'correct horse 42' });
  if (signIn.status !== 200) throw new Error(`Admin sign-in failed: ${signIn.status}`);

  const created = await admin.request('/api/admin/courses?lang=en', { method: 'POST', body: await courseForm(1) });
  if (created.status !== 201) throw new Error(`Course creation failed: ${created.status} ${await created.text()}`);
  const courseId = ((await created.json()) as { course: { id: string } }).course.id;

  const started = performance.now();
  await sql`
    WITH buyers AS (
      INSERT INTO users (email, full_name, email_verified, language)
      SELECT 'notice-buyer-' || n || '@example.com', 'Buyer ' || n, true, (ARRAY['en','tr'])[1 + n % 2]
      FROM generate_series(1, ${BUYERS}) AS n
      RETURNING id, email
    )
    INSERT INTO purchases (course_id, user_id, email, provider, payment_id, amount_minor, currency, status, completed_at, download_token)
    SELECT ${courseId}, id, email, 'free', 'free_bench_' || id, 0, 'USD', 'completed', now() - interval '1 day', md5(id::text) || md5(email) FROM buyers`.execute(
    database,
  );
  console.log(
    `\nCourse update notices: ${BUYERS.toLocaleString('en')} buyers inserted in ${Math.round(performance.now() - started)} ms`,
  );

  let edition = 1;
  const save = async () => {
    edition++;
    const body = await courseForm(edition, courseId);
    const began = performance.now();
    const response = await admin.request(`/api/admin/courses/${courseId}?lang=en`, { method: 'PUT', body });
    const ms = performance.now() - began;
    if (response.status !== 200) throw new Error(`Save failed: ${response.status} ${await response.text()}`);
    const { notified } = (await response.json()) as { notified: number };
    if (notified !== BUYERS) throw new Error(`The save announced ${notified} buyers, not ${BUYERS}`);
    return ms;
  };

  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const saveMs = await save();
    const began = performance.now();
    const expansion = await sendWaitingUpdateNotices(database);
    const inlineMs = performance.now() - began;
    if (expansion.queued !== BUYERS) throw new Error(`Expansion queued ${expansion.queued} mails, not ${BUYERS}`);
    rows.push({
      'before: save + mails inline (ms)': Math.round(saveMs + inlineMs),
      'of which the mails (ms)': Math.round(inlineMs),
    });
  }

  // After: a server whose worker runs every 2 s (the default) sends them; the save does not wait.
  const worker = await world.startServer({ JOBS_INTERVAL_MS: '2000' });
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const saveMs = await save();
      const saved = performance.now();
      const version = edition;
      for (;;) {
        const run = await database
          .selectFrom('course_update_runs')
          .select('finished_at')
          .where('course_id', '=', courseId)
          .where('pdf_version', '=', version)
          .executeTakeFirst();
        if (run?.finished_at) break;
        if (performance.now() - saved > 120_000) throw new Error('The background worker did not finish within 2 minutes');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      Object.assign(rows[round - 1]!, {
        'after: save (ms)': Math.round(saveMs),
        'after: all mails queued, after the save (ms)': Math.round(performance.now() - saved),
      });
    }
  } finally {
    await worker.stop();
  }
  console.log(`Saving a course with a new PDF and "notify buyers", ${BUYERS.toLocaleString('en')} buyers (HTTP, built server):`);
  console.table(rows);
} finally {
  await world.stop();
}

/** The course's form with a PDF of this edition (each edition's bytes differ: a new version). */
async function courseForm(edition: number, id?: string): Promise<FormData> {
  const form = new FormData();
  const fields = courseFormFields({
    title: 'Bench notices course',
    description: 'A course with many buyers.',
    notifyBuyers: id ? 'true' : 'false',
  });
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('pdf', new File([new Uint8Array(await makePdf(`Edition ${edition}`))], 'course.pdf', { type: 'application/pdf' }));
  form.set('cover', new File([new Uint8Array(makePng())], 'cover.png', { type: 'image/png' }));
  return form;
}
