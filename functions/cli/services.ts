import { createDb, type Db } from '../db/database.ts';
import { provisionDatabase, type ProvisionedDatabase } from '../db/provision.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { DEMO_USERS, ensureUser } from '../auth/users.ts';
import { env, handOnToServer, readEnv, siteUrl } from '../env.ts';
import { startBackgroundJobs } from '../jobs/shop-jobs.ts';
import { DEV_TOOL_PATHS, devToolsRule, isLoopbackHost } from '../dev-tools.ts';
import { mailboxTransport, smtpTransport } from '../mail/worker.ts';
import { flushCourseViews } from '../funnel/view-counter.ts';
import { explainFailure } from './command.ts';

/**
 * What `npm start` and `npm run dev` both run beside the web server: the database (embedded or
 * DATABASE_URL, migrated and seeded), the demo accounts and the background jobs (functions/jobs/:
 * mail delivery, buyers' update notices, the blog schedule, the blog image sweep, the limits' pruning).
 * Parts are stopped in reverse order on SIGINT/SIGTERM, even half-way through a start.
 */
export class Running {
  private readonly parts: { name: string; stop(): Promise<unknown> }[] = [];
  private stopping = false;
  private stopped: Promise<void> = Promise.resolve();

  add(name: string, stop: () => Promise<unknown>): void {
    this.parts.push({ name, stop });
  }

  /**
   * Stops what was added, in reverse order. A second call (a signal while a failure's `finally` stops,
   * or the reverse) resolves only once the first has finished: whoever then exits leaves nothing running.
   */
  stopAll(): Promise<void> {
    this.stopped = this.stopped.then(() => this.stopParts());
    return this.stopped;
  }

  private async stopParts(): Promise<void> {
    for (const part of this.parts.splice(0).reverse()) {
      // A part that throws at once is a failure like any other: the parts after it still stop.
      await Promise.resolve()
        .then(() => part.stop())
        .catch((error: unknown) => console.error(`  stopping the ${part.name} failed: ${explainFailure(error)}`));
    }
  }

  /** Ctrl-C and SIGTERM stop everything this process started, then exit. */
  stopOnSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (this.stopping) return;
        this.stopping = true;
        console.log(`\n${signal}: shutting down…`);
        void this.stopAll().then(() => process.exit(0));
      });
    }
  }
}

/**
 * Decided once per process, before the web server loads: whether the developer tools are on (they
 * depend on the database being embedded), passed on to the server as DEV_TOOLS.
 */
export function decideDevTools(): { devTools: boolean; embedded: boolean } {
  // Before env() is first read (and kept): the generated development secret is part of it.
  ensureDevelopmentSecret(readEnv().DATA_DIR);
  const embedded = !env().DATABASE_URL;
  const devTools = devToolsRule(env(), embedded);
  handOnToServer({ DEV_TOOLS: devTools ? 'on' : 'off' });
  return { devTools, embedded };
}

export interface Services {
  database: ProvisionedDatabase;
  /** Where mail goes, in words for the start-up line. */
  mail: string;
}

export async function startServices(running: Running, devTools: boolean): Promise<Services> {
  const { NODE_ENV, SMTP_URL, MAIL_FROM } = env();
  const database = await provisionDatabase();
  running.add('database', () => database.stop());
  handOnToServer({ DATABASE_URL: database.url });
  // Migrations hold a lock: through the direct URL when a pooler stands in DATABASE_URL.
  await prepareDatabase(env().DATABASE_DIRECT_URL ?? database.url);

  const workerDb = createDb(database.url, 2);
  running.add('worker pool', () => workerDb.destroy());
  if (database.embedded && NODE_ENV !== 'production') await ensureDemoUsers(workerDb);
  // Without SMTP and without the dev mailbox, mail waits in the outbox: never marked sent unsent.
  const transport = SMTP_URL ? smtpTransport(SMTP_URL, MAIL_FROM) : devTools ? mailboxTransport(workerDb) : undefined;
  const jobs = startBackgroundJobs(workerDb, {
    transport,
    jobsIntervalMs: env().JOBS_INTERVAL_MS,
    blogIntervalMs: env().BLOG_SCHEDULER_INTERVAL_MS,
  });
  running.add('background jobs', async () => {
    await jobs.stop();
    // The server has stopped by now (it started later): the views it counted until its last request are kept.
    await flushCourseViews(workerDb);
  });

  console.log(`  Database: ${displayedUrl(database.url)}${database.embedded ? '  (embedded PostgreSQL)' : ''}`);
  const mail = SMTP_URL ? 'SMTP' : devTools ? `dev mailbox at ${siteUrl()}/en/dev/mailbox` : 'queued, not sent (set SMTP_URL)';
  return { database, mail };
}

/** The database URL for other tools (psql, a GUI): its password masked unless `--show-password`. */
export function displayedUrl(url: string): string {
  if (process.argv.includes('--show-password')) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '****';
  return `${parsed.toString()}  (add -- --show-password to the command to see the password)`;
}

/** Embedded demo mode only: a demo admin and a demo buyer, printed so a visitor can try both sides. */
async function ensureDemoUsers(database: Db): Promise<void> {
  for (const user of DEMO_USERS) await ensureUser(database, user);
  console.log(`  Demo accounts: ${DEMO_USERS.map((user) => `${user.role} ${user.email} / ${user.password}`).join('  ·  ')}`);
}

/** Development mode reachable from other machines: say so, and name what a visitor could open. */
export function exposureWarning(host: string, nodeEnv: string, devTools: boolean): string | undefined {
  if (nodeEnv === 'production' || isLoopbackHost(host)) return undefined;
  const exposed = devTools
    ? `the developer tools are ON and reachable by anyone who can reach this port: ${DEV_TOOL_PATHS.join(', ')} (every sign-in and reset link, free demo payments)`
    : 'the developer tools are off (DEV_TOOLS=on would expose the dev mailbox and demo payments)';
  return `\n  WARNING: development mode (NODE_ENV=${nodeEnv}) listening on ${host}: ${exposed}. Run a real shop with NODE_ENV=production.\n`;
}
