import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { provisionDatabase } from '../db/provision.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { env, siteUrl } from '../env.ts';
import { close, createHttpServer, listen, type NodeHandler } from '../server/http-server.ts';
import { createStaticHandler, loadStaticFiles } from '../server/static-files.ts';
import { buildIfNeeded, SERVER_ENTRY } from './build-if-needed.ts';

/** `npm start`: build if needed, provide and migrate the database, seed demo data, serve. */
const startedAt = performance.now();
const { HOST, PORT } = env();
if (!process.argv.includes('--no-build')) buildIfNeeded();

const database = await provisionDatabase();
process.env.DATABASE_URL = database.url;
await prepareDatabase(database.url);

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const entry = (await import(pathToFileURL(path.resolve(SERVER_ENTRY)).href)) as { handler: NodeHandler };
const server = createHttpServer(entry.handler, createStaticHandler(loadStaticFiles(path.resolve('dist/client'))));
await listen(server, PORT, HOST);
const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
console.log(`\n  Shop ready in ${seconds}s at ${siteUrl()}  (database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    await close(server);
    await database.stop();
    process.exit(0);
  });
}
