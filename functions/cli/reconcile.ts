import '../load-env-file.ts';
import { parseArgs } from 'node:util';
import { useDb } from '../db/database.ts';
import { configuredProviders } from '../payments/registry.ts';
import { reconcilePaidSessions } from '../orders/reconcile.ts';
import { runWithDatabase } from './with-database.ts';

/** `npm run payments:reconcile -- --days 3`: fulfils paid checkouts whose confirmation never arrived, with every configured provider. */
const { values } = parseArgs({ options: { days: { type: 'string', default: '3' } } });
const days = Number(values.days);
if (!Number.isInteger(days) || days < 1 || days > 90) {
  console.error('Usage: npm run payments:reconcile -- --days N   (1 to 90)');
  process.exit(2);
}
if (configuredProviders().every((provider) => provider.developerTool)) {
  console.error('No payment provider is configured: nothing to reconcile (demo payments complete immediately).');
  process.exit(2);
}
await runWithDatabase('reconcile payments', async (database) => {
  // The payment code reads the shared handle.
  useDb(database);
  const counts = await reconcilePaidSessions(days);
  console.log(`Checkout Sessions of the last ${days} day(s):`);
  console.table(counts);
});
