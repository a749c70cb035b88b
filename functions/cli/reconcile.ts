import '../load-env-file.ts';
import { parseArgs } from 'node:util';
import { useDb } from '../db/database.ts';
import { env } from '../env.ts';
import { reconcilePaidSessions } from '../payments/reconcile.ts';
import { runWithDatabase } from './with-database.ts';

/** `npm run payments:reconcile -- --days 3`: fulfils paid Checkout Sessions whose webhook never arrived. */
const { values } = parseArgs({ options: { days: { type: 'string', default: '3' } } });
const days = Number(values.days);
if (!Number.isInteger(days) || days < 1 || days > 90) {
  console.error('Usage: npm run payments:reconcile -- --days N   (1 to 90)');
  process.exit(2);
}
if (!env().STRIPE_SECRET_KEY) {
  console.error('STRIPE_SECRET_KEY is not set: nothing to reconcile (demo payments complete immediately).');
  process.exit(2);
}
await runWithDatabase('reconcile payments', async (database) => {
  // The payment code reads the shared handle.
  useDb(database);
  const counts = await reconcilePaidSessions(days);
  console.log(`Checkout Sessions of the last ${days} day(s):`);
  console.table(counts);
});
