import { createHmac, randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { readMigrations } from '../db/migrate.ts';
import { env, siteUrl } from '../env.ts';
import { configuredProviders } from '../payments/registry.ts';
import { storage, type StorageAdapter } from '../storage/storage.ts';
import { missingSettings, readSettings } from '../shop/settings.ts';
import { unsentMail } from '../mail/outbox.ts';
import { failingJobs } from '../jobs/health.ts';
import { REQUIRED_SETTINGS } from '../../src/lib/admin/shop-settings.schema.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';
import { within } from '../timeout.ts';

/** One line of `npm run doctor` and of the admin overview's "Shop health", in either language. */
export interface Check {
  name: MessageKey;
  /** `not_configured`: a part not set up yet (a failure only in production). */
  status: 'ok' | 'fail' | 'not_configured';
  detail: MessageKey;
  params: Record<string, string | number>;
}

const TIMEOUT_MS = 5_000;

/**
 * What a seller must see before buyers do: every part the shop depends on, checked for real (a
 * query, an SMTP login, a Stripe call, a file written and read back, the public URL fetched).
 */
export async function runDoctor(database: Db): Promise<Check[]> {
  const checks = await Promise.all([
    check('doctor.database', () => databaseCheck(database)),
    check('doctor.mail', mailCheck),
    check('doctor.outbox', () => outboxCheck(database)),
    check('doctor.jobs', () => jobsCheck(database)),
    ...paymentChecks(),
    check('doctor.storage', () => storageCheck(storage())),
    check('doctor.site', siteCheck),
    check('doctor.secret', secretCheck),
    check('doctor.shop', () => shopCheck(database)),
  ]);
  // A shop buyers use has nothing left to configure.
  const production = env().NODE_ENV === 'production';
  return checks.map((item) => (production && item.status === 'not_configured' ? { ...item, status: 'fail' } : item));
}

/** Ready when nothing failed (in production, runDoctor counts anything not configured as failed). */
export function doctorPassed(checks: Check[]): boolean {
  return checks.every((item) => item.status !== 'fail');
}

/** A value only this shop's secret produces: /api/health shows it, so the doctor knows it reached this shop. */
export function shopFingerprint(): string {
  return createHmac('sha256', env().BETTER_AUTH_SECRET ?? '')
    .update('microcourses-health')
    .digest('hex')
    .slice(0, 16);
}

type Params = Check['params'];
type Outcome = Omit<Check, 'name'>;
const ok = (detail: MessageKey, params: Params = {}): Outcome => ({ status: 'ok', detail, params });
const fail = (detail: MessageKey, params: Params = {}): Outcome => ({ status: 'fail', detail, params });
const notConfigured = (detail: MessageKey, params: Params = {}): Outcome => ({ status: 'not_configured', detail, params });

async function check(name: MessageKey, run: () => Promise<Outcome>): Promise<Check> {
  const timedOut = fail('doctor.timeout', { seconds: TIMEOUT_MS / 1000 });
  try {
    const outcome = await within(run(), TIMEOUT_MS, timedOut);
    return { name, ...outcome };
  } catch (error) {
    return { name, ...fail('doctor.failed', { reason: error instanceof Error ? error.message : String(error) }) };
  }
}

async function databaseCheck(database: Db): Promise<Outcome> {
  const files = await readMigrations();
  const tracked = await sql<{ exists: boolean }>`SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`.execute(database);
  const applied = tracked.rows[0]?.exists
    ? (await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(database)).rows
    : [];
  const done = new Set(applied.map((row) => Number(row.version)));
  const pending = files.filter((file) => !done.has(file.version)).length;
  const { NODE_ENV, DATABASE_URL, DATA_DIR } = env();
  if (pending > 0) return notConfigured('doctor.databasePending', { count: pending });
  // The embedded server in production is one machine's disk: fine, if the seller knows it.
  if (NODE_ENV === 'production' && !DATABASE_URL)
    return ok('doctor.databaseOkEmbedded', { count: files.length, dir: `${DATA_DIR}/postgres` });
  return ok('doctor.databaseOk', { count: files.length });
}

async function mailCheck(): Promise<Outcome> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) return notConfigured('doctor.mailMissing');
  const host = new URL(SMTP_URL).host;
  const transport = nodemailer.createTransport(SMTP_URL);
  try {
    await transport.verify();
  } catch (error) {
    return fail('doctor.mailRefused', { host, reason: (error as Error).message });
  } finally {
    transport.close();
  }
  return ok('doctor.mailOk', { host, from: MAIL_FROM });
}

/** Mail is never given up (mail/worker.ts): this is where an outage that keeps it waiting shows. */
async function outboxCheck(database: Db): Promise<Outcome> {
  const created = await sql<{ exists: boolean }>`SELECT to_regclass('mail_outbox') IS NOT NULL AS exists`.execute(database);
  if (!created.rows[0]?.exists) return ok('doctor.outboxOk');
  const unsent = await unsentMail(database);
  if (unsent.count === 0) return ok('doctor.outboxOk');
  const params = { count: unsent.count, since: formatUtc(unsent.oldestQueuedAt!) };
  return unsent.lastError
    ? fail('doctor.outboxFailing', { ...params, reason: unsent.lastError })
    : fail('doctor.outboxStuck', params);
}

/** Any instance's failing job, named as its log lines name it (functions/jobs/health.ts). */
async function jobsCheck(database: Db): Promise<Outcome> {
  const failing = await failingJobs(database);
  if (failing.length === 0) return ok('doctor.jobsOk');
  const jobs = failing.map((job) => `${job.name} (${formatUtc(job.failingSince!)}): ${job.lastError ?? ''}`).join('; ');
  return fail('doctor.jobsFailing', { jobs });
}

/** A moment in either language's output: "2026-11-28 14:05 UTC". */
function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** One line per configured payment provider, each checked against its own API (payments/<provider>.ts). */
function paymentChecks(): Promise<Check>[] {
  const providers = configuredProviders();
  if (providers.length === 0) return [check('doctor.payments', () => Promise.resolve(notConfigured('doctor.paymentsMissing')))];
  return providers.map((provider) => check(provider.checkName, () => provider.check()));
}

/**
 * Writes a private and a public probe, reads them back as buyers would (a bucket's private file only
 * through a presigned URL, never unsigned), and deletes them.
 */
export async function storageCheck(files: StorageAdapter): Promise<Outcome> {
  // Covers are the only public files: the probe is a tiny SVG, so the media route serves it.
  const probe = (name: string) => ({
    key: `doctor/${name}-${randomUUID()}.svg`,
    content: `<svg xmlns="http://www.w3.org/2000/svg"><!-- ${randomUUID()} --></svg>`,
  });
  const [secret, cover] = [probe('private'), probe('public')];
  await files.put('private', secret.key, secret.content);
  await files.put('public', cover.key, cover.content);
  let deleted = false;
  try {
    const stored = await files.get('private', secret.key);
    if (stored === undefined || (await stored.read()).toString() !== secret.content) return fail('doctor.storageUnreadable');
    const bucket = await bucketAccess(files, secret);
    if (bucket) return bucket;
    const absolutePublic = absolute(files.publicUrl(''));
    const served = await fetchText(absolute(files.publicUrl(cover.key)));
    if ((await fetchText(absolute(files.publicUrl(secret.key)))) === secret.content) return fail('doctor.storagePrivateLeak');
    await Promise.all([files.delete('private', secret.key), files.delete('public', cover.key)]);
    deleted = true;
    if (await files.get('private', secret.key)) return fail('doctor.storageNotDeleted');
    // Local files are served by the shop itself: that part can only be checked while it runs.
    if (served === undefined && absolutePublic.startsWith(siteUrl()) && !(await fetchHealth())?.ok)
      return ok(files.signedUrl ? 'doctor.storageOkSignedOffline' : 'doctor.storageOkOffline');
    if (served !== cover.content) return fail('doctor.storageNotServed', { url: absolutePublic });
    return ok(files.signedUrl ? 'doctor.storageOkSigned' : 'doctor.storageOk');
  } finally {
    if (!deleted) await Promise.all([files.delete('private', secret.key), files.delete('public', cover.key)]);
  }
}

/** A bucket's private probe: readable through a presigned URL, refused to an unsigned request. */
async function bucketAccess(files: StorageAdapter, secret: { key: string; content: string }): Promise<Outcome | undefined> {
  if (!files.signedUrl || !files.unsignedUrl) return undefined;
  const signed = await fetch(await files.signedUrl(secret.key, { expiresInS: 60 }), { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!signed.ok || (await signed.text()) !== secret.content)
    return fail('doctor.storagePresignRefused', { status: signed.status });
  if ((await fetchText(files.unsignedUrl('private', secret.key))) === secret.content) return fail('doctor.storagePrivateLeak');
  return undefined;
}

async function siteCheck(): Promise<Outcome> {
  const { PUBLIC_SITE_URL: url, NODE_ENV } = env();
  if (!url) return notConfigured('doctor.siteMissing', { url: siteUrl() });
  if (NODE_ENV === 'production' && !url.startsWith('https://')) return fail('doctor.siteNotHttps', { url });
  const response = await fetchHealth();
  if (!response) return fail('doctor.siteUnreachable', { url });
  const health = (await response.json().catch(() => ({}))) as { shop?: string };
  if (health.shop !== shopFingerprint()) return fail('doctor.siteOther', { url });
  return ok('doctor.siteOk', { url });
}

async function secretCheck(): Promise<Outcome> {
  const secret = env().BETTER_AUTH_SECRET ?? '';
  return Promise.resolve(secret.length >= 32 ? ok('doctor.secretOk', { count: secret.length }) : fail('doctor.secretShort'));
}

/** The shop's identity (Admin → Settings): what buyers read on legal pages and receipts. */
async function shopCheck(database: Db): Promise<Outcome> {
  // Before the first start, the database has no tables yet: nothing is filled in.
  const created = await sql<{ exists: boolean }>`SELECT to_regclass('shop_settings') IS NOT NULL AS exists`.execute(database);
  if (!created.rows[0]?.exists) return notConfigured('doctor.shopMissing', { count: REQUIRED_SETTINGS.length });
  const stored = await readSettings(database);
  const missing = missingSettings(stored);
  if (missing.length > 0) return notConfigured('doctor.shopMissing', { count: missing.length });
  return ok('doctor.shopOk', { name: stored.settings.shopName });
}

/** The public address's answer at /api/health, or undefined when nothing answers. */
function fetchHealth(): Promise<Response | undefined> {
  return fetch(`${siteUrl()}/api/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => undefined);
}

function absolute(url: string): string {
  return new URL(url, siteUrl()).href;
}

async function fetchText(url: string): Promise<string | undefined> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => undefined);
  return response?.ok ? response.text() : undefined;
}
