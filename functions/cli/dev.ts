import '../load-env-file.ts';
import { env, siteUrl } from '../env.ts';
import { explainFailure } from './command.ts';
import { useCompileCache } from './compile-cache.ts';
import { decideDevTools, exposureWarning, Running, startServices } from './services.ts';

/**
 * `npm run dev`: what `npm start` provides (the database, migrated and seeded, demo accounts, the
 * mail worker and dev mailbox), then Astro's dev server with hot reload for pages, islands and
 * `functions/`. It can run beside `npm start` on another port: they share the embedded database.
 */
useCompileCache();
const running = new Running();
running.stopOnSignals();

try {
  const { devTools } = decideDevTools();
  const { HOST, PORT, NODE_ENV } = env();
  const { mail } = await startServices(running, devTools);
  const { dev } = await import('astro');
  const server = await dev({ root: process.cwd(), server: { host: HOST, port: PORT }, logLevel: 'warn' });
  running.add('dev server', () => server.stop());
  const warning = exposureWarning(HOST, NODE_ENV, devTools);
  if (warning) console.log(warning);
  console.log(`\n  Dev server ready at ${siteUrl()} with hot reload  (mail: ${mail})\n`);
} catch (error) {
  console.error(`\n  Could not start the dev server: ${explainFailure(error)}\n`);
  await running.stopAll();
  process.exit(1);
}
