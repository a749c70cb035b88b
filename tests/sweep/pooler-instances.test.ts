import { afterAll, beforeAll, describe, inject } from 'vitest';
import { PURGE_POLL_MS } from '../../functions/http/cache-notify.ts';
import { describeInstances } from '../support/instance-cases.ts';
import { pgBouncerMissing, startPgBouncer, type PgBouncer } from '../support/pgbouncer.ts';

/**
 * `npm run test:sweep` only: two and three shop instances through a real PgBouncer in transaction
 * mode, without DATABASE_DIRECT_URL (tests/integration/ops/pooler.test.ts has the cases npm test runs).
 */
const missing = pgBouncerMissing();
if (missing) console.log(`pooler tests skipped: ${missing}`);
const databaseName = () => new URL(process.env.DATABASE_URL!).pathname.slice(1);

describe.skipIf(missing)('shop instances through PgBouncer in transaction mode (npm run test:sweep)', () => {
  let sweepBouncer: PgBouncer | undefined;
  beforeAll(async () => {
    sweepBouncer = await startPgBouncer(inject('postgresServerUrl'), { poolSize: 10 });
  });
  afterAll(() => sweepBouncer?.stop());
  describeInstances('through PgBouncer in transaction mode, without DATABASE_DIRECT_URL', {
    settings: () => ({ DATABASE_URL: sweepBouncer!.url(databaseName()) }),
    settingsFor: (name) => ({ DATABASE_URL: sweepBouncer!.url(name) }),
    purgeWithinMs: PURGE_POLL_MS + 1500,
  });
});
