import '../load-env-file.ts';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { env, readEnv } from '../env.ts';
import { doctorPassed, runDoctor, type Check } from '../ops/doctor.ts';
import { runWithDatabase } from './with-database.ts';
import { getT } from '../../src/i18n/i18n.ts';

/** `npm run doctor`: the shop's health as a checklist; in production any ✗ exits 1. */
const MARKS: Record<Check['status'], string> = { ok: '✓', fail: '✗', not_configured: '–' };

await runWithDatabase(
  'check the shop',
  async (database) => {
    const checks = await runDoctor(database);
    console.log(`\n  Shop health (${env().NODE_ENV})\n`);
    const t = getT('en');
    for (const item of checks) console.log(`  ${MARKS[item.status]} ${t(item.name)}: ${t(item.detail, item.params)}`);
    const passed = doctorPassed(checks);
    console.log(passed ? '\n  Ready.\n' : '\n  Not ready: fix each ✗ above.\n');
    if (!passed) process.exitCode = 1;
  },
  {
    quiet: true,
    // Before env() is first read (and kept): the generated development secret is part of it.
    before: () => ensureDevelopmentSecret(readEnv().DATA_DIR),
  },
);
