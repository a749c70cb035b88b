import { db } from '../db/database.ts';
import { devToolsEnabled } from '../dev-tools.ts';
import { env } from '../env.ts';
import { runDoctor, type Check } from '../ops/doctor.ts';
import { unsentMail, type UnsentMail } from '../mail/outbox.ts';
import { failingJobs, type JobHealth } from '../jobs/health.ts';
import { JOB_LABELS } from '../jobs/shop-jobs.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';
import { missingSettings, storedShopSettings } from '../shop/settings.ts';
import { staleRates, storedCurrencySettings } from '../shop/currencies.ts';
import type { RequiredSetting } from '../../src/lib/admin/shop-settings.schema.ts';
import { readTaxSettings } from '../taxes/settings.ts';
import { taxTableStatus } from '../taxes/rate-table.ts';

export interface ShopHealth {
  checks: Check[];
  /** Mail held in the outbox because nothing can send it (no SMTP, no dev mailbox). */
  waitingMail: number;
  /** Mail the mail server keeps refusing, or that has waited too long: never dropped, shown here. */
  unsentMail: UnsentMail;
  /** Background jobs failing now on any instance, with what the overview calls them (none: their name). */
  failingJobs: (JobHealth & { label: MessageKey | null })[];
  /** Shop details buyers would see missing (legal pages, receipts): to fill before launch. */
  missingSettings: RequiredSetting[];
  /** The reference exchange rates, when they are more than 30 days old (or still the built-in ones). */
  staleRates: ReturnType<typeof staleRates>;
  /** The tax rate table's day, when it is more than six months old and the shop taxes by country. */
  staleTaxTable: string | undefined;
}

const FRESH_MS = 60_000;
let latest: { at: number; checks: Promise<Check[]> } | undefined;

/** The admin overview's "Shop health": the doctor's checks (at most once a minute) and what waits. */
export async function shopHealth(): Promise<ShopHealth> {
  if (!latest || Date.now() - latest.at > FRESH_MS) latest = { at: Date.now(), checks: runDoctor(db()) };
  const mailCannotLeave = !env().SMTP_URL && !devToolsEnabled();
  const [checks, settings, currencies, unsent, jobs, waiting, taxes] = await Promise.all([
    latest.checks,
    storedShopSettings(),
    storedCurrencySettings(),
    unsentMail(db()),
    failingJobs(db()),
    mailCannotLeave
      ? db()
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      : { n: '0' },
    readTaxSettings(),
  ]);
  const taxTable = taxTableStatus();
  return {
    checks,
    waitingMail: Number(waiting.n),
    unsentMail: unsent,
    failingJobs: jobs.map((job) => ({ ...job, label: (JOB_LABELS as Record<string, MessageKey>)[job.name] ?? null })),
    missingSettings: missingSettings(settings),
    staleRates: staleRates(currencies),
    staleTaxTable: taxes.settings.sellerCountry && taxTable.stale ? taxTable.date : undefined,
  };
}
