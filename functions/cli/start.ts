import '../load-env-file.ts';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { env, siteUrl } from '../env.ts';
import { productionPreflight, TEST_HARNESS_BANNER } from '../ops/preflight.ts';
import { close, createHttpServer, listen, loopbackOrigin, type NodeHandler } from '../http/http-server.ts';
import { createStaticHandler, loadStaticFiles } from '../http/static-files.ts';
import { PageCache, pageCacheBytes } from '../http/page-cache.ts';
import { inProcessRenderer } from '../http/in-process.ts';
import { CACHE_RULES, SHOP_TAG } from '../http/cache-rules.ts';
import { followChanges } from '../http/cache-notify.ts';
import { startNamingStatements } from '../db/named-statements.ts';
import { countCourseView } from '../funnel/view-counter.ts';
import { forgetSettings } from '../shop/settings-cache.ts';
import { buildIfNeeded, buildIsCurrent, SERVER_ENTRY } from './build-if-needed.ts';
import { explainFailure } from './command.ts';
import { useCompileCache } from './compile-cache.ts';
import { leaveServerEnvToServer } from './server-flags.ts';
import { decideDevTools, exposureWarning, Running, startServices } from './services.ts';

/** `npm start`: build if needed, provide and migrate the database, seed demo data, serve. */
useCompileCache();
leaveServerEnvToServer();
const startedAt = performance.now();
const running = new Running();
running.stopOnSignals();

try {
  await start();
} catch (error) {
  console.error(`\n  Could not start the shop: ${explainFailure(error)}\n`);
  await running.stopAll();
  process.exit(1);
}

async function start(): Promise<void> {
  const { devTools, embedded } = decideDevTools();
  const { HOST, PORT, NODE_ENV } = env();
  const preflight = productionPreflight(env(), { devTools, embeddedDatabase: embedded });
  if (preflight.problems.length > 0)
    throw new Error(
      `this production configuration would fail buyers:\n${preflight.problems.map((line) => `    ✗ ${line}`).join('\n')}`,
    );
  if (env().PRODUCTION_CHECKS === 'test-harness') console.log(`\n${TEST_HARNESS_BANNER}`);
  for (const warning of preflight.warnings) console.log(`  ! ${warning}`);
  prepareBuild(NODE_ENV, process.argv.includes('--no-build'));

  const { database, mail } = await startServices(running, devTools);

  const entry = (await import(pathToFileURL(path.resolve(SERVER_ENTRY)).href)) as { handler: NodeHandler };
  let origin = '';
  const production = NODE_ENV === 'production';
  const pageCache = new PageCache(
    CACHE_RULES,
    inProcessRenderer(entry.handler, () => new URL(origin).host),
    { production, maxBytes: pageCacheBytes(env().PAGE_CACHE_MB) },
  );
  const server = createHttpServer(entry.handler, {
    serveStatic: createStaticHandler(loadStaticFiles(path.resolve('dist/client')), { production }),
    pageCache,
    production,
    countRequest: env().FUNNEL_COUNTING === 'on' ? countCourseView : undefined,
  });
  await listen(server, PORT, HOST);
  running.add('http server', () => close(server));
  origin = loopbackOrigin(server);
  const changes = await followChanges({ url: database.url, listenUrl: env().DATABASE_DIRECT_URL ?? database.url }, (tag) => {
    // The settings first: the pages purged next render with the new ones.
    if (tag === SHOP_TAG || tag === '*') forgetSettings();
    pageCache.purge([tag]);
  });
  running.add('cache purges', () => changes.stop());
  console.log(`  Page purges from other instances: ${changes.how}`);
  if (changes.sessions) startNamingStatements(database.url);
  console.log(
    `  Statements: ${changes.sessions ? 'parsed once per connection' : 'parsed at every use (DATABASE_URL may be a transaction pooler)'}`,
  );

  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const warning = exposureWarning(HOST, NODE_ENV, devTools);
  if (warning) console.log(warning);
  console.log(
    `\n  Shop ready in ${seconds}s at ${siteUrl()}  (database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}; mail: ${mail})\n`,
  );
}

/**
 * Development builds when needed; production only serves what the deploy built (`npm run build`), and
 * checks that it is current: a stale build would serve old code under new migrations. `--no-build`
 * skips that, for development harnesses that built once already; production refuses it (a build is
 * not tied to a site address, so every production start can check its build).
 */
function prepareBuild(nodeEnv: string, noBuild: boolean): void {
  if (nodeEnv === 'production' && noBuild)
    throw new Error('--no-build skips the build check and is refused in production: leave it out (run `npm run build` first).');
  if (noBuild) return;
  if (nodeEnv !== 'production') {
    buildIfNeeded();
    return;
  }
  if (!existsSync(SERVER_ENTRY)) throw new Error('there is no build: run `npm run build` (the deploy step) before `npm start`.');
  if (!buildIsCurrent()) throw new Error('the build is older than the sources: run `npm run build`, then `npm start`.');
}
