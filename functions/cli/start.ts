import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { provisionDatabase } from '../db/provision.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { DEMO_USERS, ensureUser } from '../auth/users.ts';
import { createDb, type Db } from '../db/database.ts';
import { env, siteUrl } from '../env.ts';
import { mailboxTransport, smtpTransport, startMailWorker } from '../mail/worker.ts';
import { close, createHttpServer, listen, loopbackOrigin, type NodeHandler } from '../server/http-server.ts';
import { createStaticHandler, loadStaticFiles } from '../server/static-files.ts';
import { PageCache } from '../server/page-cache.ts';
import { CACHE_RULES } from '../server/cache-rules.ts';
import { listenForChanges } from '../server/cache-notify.ts';
import { buildIfNeeded, SERVER_ENTRY } from './build-if-needed.ts';

/** `npm start`: build if needed, provide and migrate the database, seed demo data, serve. */
const startedAt = performance.now();
ensureDevelopmentSecret(env().DATA_DIR);
const { HOST, PORT, NODE_ENV, SMTP_URL, MAIL_FROM } = env();
if (!process.argv.includes('--no-build')) buildIfNeeded();

const database = await provisionDatabase();
process.env.DATABASE_URL = database.url;
await prepareDatabase(database.url);

const workerDb = createDb(database.url, 2);
if (database.embedded && NODE_ENV !== 'production') await ensureDemoUsers(workerDb);
const mailWorker = startMailWorker(workerDb, SMTP_URL ? smtpTransport(SMTP_URL, MAIL_FROM) : mailboxTransport);

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
origin = loopbackOrigin(server);
const cacheListener = listenForChanges(database.url, (tag) => pageCache.purge([tag]));
const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
console.log(
  `\n  Shop ready in ${seconds}s at ${siteUrl()}  (database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}; mail: ${SMTP_URL ? 'SMTP' : `dev mailbox at ${siteUrl()}/en/dev/mailbox`})\n`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    await close(server);
    await cacheListener.stop();
    await mailWorker.stop();
    await workerDb.destroy();
    await database.stop();
    process.exit(0);
  });
}

/** Embedded demo mode only: a demo admin and a demo buyer, printed so a visitor can try both sides. */
async function ensureDemoUsers(database: Db): Promise<void> {
  for (const user of DEMO_USERS) await ensureUser(database, user);
  console.log(`  Demo accounts: ${DEMO_USERS.map((user) => `${user.role} ${user.email} / ${user.password}`).join('  ·  ')}`);
}
