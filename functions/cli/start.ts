import '../load-env-file.ts';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { provisionDatabase } from '../db/provision.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { DEMO_USERS, ensureUser } from '../auth/users.ts';
import { createDb, type Db } from '../db/database.ts';
import { env, siteUrl } from '../env.ts';
import { pruneUsageLimits } from '../abuse/limits.ts';
import { productionPreflight, TEST_HARNESS_BANNER } from '../ops/preflight.ts';
import { log } from '../log.ts';
import { DEV_TOOL_PATHS, devToolsRule, isLoopbackHost } from '../dev-tools.ts';
import { mailboxTransport, smtpTransport, startMailWorker } from '../mail/worker.ts';
import { close, createHttpServer, listen, loopbackOrigin, type NodeHandler } from '../http/http-server.ts';
import { createStaticHandler, loadStaticFiles } from '../http/static-files.ts';
import { PageCache } from '../http/page-cache.ts';
import { CACHE_RULES } from '../http/cache-rules.ts';
import { listenForChanges } from '../http/cache-notify.ts';
import { buildIfNeeded, buildIsCurrent, SERVER_ENTRY } from './build-if-needed.ts';
import { existsSync } from 'node:fs';
import { explainFailure } from './command.ts';

/** `npm start`: build if needed, provide and migrate the database, seed demo data, serve. */
const startedAt = performance.now();
// What has been started so far, stopped in reverse order on SIGINT/SIGTERM, even half-way through.
const running: { name: string; stop(): Promise<unknown> }[] = [];
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    void stopAll().then(() => process.exit(0));
  });
}

try {
  await start();
} catch (error) {
  console.error(`\n  Could not start the shop: ${explainFailure(error)}\n`);
  await stopAll();
  process.exit(1);
}

async function start(): Promise<void> {
  ensureDevelopmentSecret(env().DATA_DIR);
  const { HOST, PORT, NODE_ENV, SMTP_URL, MAIL_FROM } = env();

  // Decided here, where it is known whether the database is embedded; the server reads the answer.
  const embedded = !env().DATABASE_URL;
  const devTools = devToolsRule(env(), embedded);
  process.env.DEV_TOOLS = devTools ? 'on' : 'off';
  const preflight = productionPreflight(env(), { devTools, embeddedDatabase: embedded });
  if (preflight.problems.length > 0)
    throw new Error(
      `this production configuration would fail buyers:\n${preflight.problems.map((line) => `    ✗ ${line}`).join('\n')}`,
    );
  if (env().PRODUCTION_CHECKS === 'test-harness') console.log(`\n${TEST_HARNESS_BANNER}`);
  for (const warning of preflight.warnings) console.log(`  ! ${warning}`);
  if (!process.argv.includes('--no-build')) prepareBuild(NODE_ENV);

  const database = await provisionDatabase();
  running.push({ name: 'database', stop: () => database.stop() });
  process.env.DATABASE_URL = database.url;
  await prepareDatabase(database.url);

  const workerDb = createDb(database.url, 2);
  running.push({ name: 'worker pool', stop: () => workerDb.destroy() });
  if (database.embedded && NODE_ENV !== 'production') await ensureDemoUsers(workerDb);
  // Without SMTP and without the dev mailbox, mail waits in the outbox: never marked sent unsent.
  const transport = SMTP_URL ? smtpTransport(SMTP_URL, MAIL_FROM) : devTools ? mailboxTransport(workerDb) : undefined;
  if (transport) {
    const mailWorker = startMailWorker(workerDb, transport);
    running.push({ name: 'mail worker', stop: () => mailWorker.stop() });
  }

  const pruning = setInterval(
    () => void pruneUsageLimits(workerDb).catch((error: unknown) => log.warn({ err: error }, 'pruning usage limits failed')),
    60 * 60 * 1000,
  );
  running.push({ name: 'limit pruning', stop: () => Promise.resolve(clearInterval(pruning)) });

  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const entry = (await import(pathToFileURL(path.resolve(SERVER_ENTRY)).href)) as { handler: NodeHandler };
  let origin = '';
  const pageCache = new PageCache(CACHE_RULES, (pathWithQuery, headers) =>
    fetch(`${origin}${pathWithQuery}`, { headers, redirect: 'manual' }),
  );
  const server = createHttpServer(entry.handler, {
    serveStatic: createStaticHandler(loadStaticFiles(path.resolve('dist/client'))),
    pageCache,
    production: NODE_ENV === 'production',
  });
  await listen(server, PORT, HOST);
  running.push({ name: 'http server', stop: () => close(server) });
  origin = loopbackOrigin(server);
  const cacheListener = listenForChanges(database.url, (tag) => pageCache.purge([tag]));
  running.push({ name: 'cache listener', stop: () => cacheListener.stop() });

  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const mail = SMTP_URL ? 'SMTP' : devTools ? `dev mailbox at ${siteUrl()}/en/dev/mailbox` : 'queued, not sent (set SMTP_URL)';
  const warning = exposureWarning(HOST, NODE_ENV, devTools);
  if (warning) console.log(warning);
  console.log(
    `\n  Shop ready in ${seconds}s at ${siteUrl()}  (database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}; mail: ${mail})\n`,
  );
}

/** Development mode reachable from other machines: say so, and name what a visitor could open. */
function exposureWarning(host: string, nodeEnv: string, devTools: boolean): string | undefined {
  if (nodeEnv === 'production' || isLoopbackHost(host)) return undefined;
  const exposed = devTools
    ? `the developer tools are ON and reachable by anyone who can reach this port: ${DEV_TOOL_PATHS.join(', ')} (every sign-in and reset link, free demo payments)`
    : 'the developer tools are off (DEV_TOOLS=on would expose the dev mailbox and demo payments)';
  return `\n  WARNING: development mode (NODE_ENV=${nodeEnv}) listening on ${host}: ${exposed}. Run a real shop with NODE_ENV=production.\n`;
}

/** Development builds when needed; production only serves what the deploy built (`npm run build`). */
function prepareBuild(nodeEnv: string): void {
  if (nodeEnv !== 'production') {
    buildIfNeeded();
    return;
  }
  if (!existsSync(SERVER_ENTRY)) throw new Error('there is no build: run `npm run build` (the deploy step) before `npm start`.');
  if (!buildIsCurrent())
    throw new Error('the build is older than the sources (or PUBLIC_SITE_URL changed): run `npm run build`, then `npm start`.');
}

async function stopAll(): Promise<void> {
  for (const part of running.splice(0).reverse()) {
    await part.stop().catch((error: unknown) => console.error(`  stopping the ${part.name} failed: ${explainFailure(error)}`));
  }
}

/** Embedded demo mode only: a demo admin and a demo buyer, printed so a visitor can try both sides. */
async function ensureDemoUsers(database: Db): Promise<void> {
  for (const user of DEMO_USERS) await ensureUser(database, user);
  console.log(`  Demo accounts: ${DEMO_USERS.map((user) => `${user.role} ${user.email} / ${user.password}`).join('  ·  ')}`);
}
