import '../load-env-file.ts';
import { parseArgs } from 'node:util';
import { resetTwoFactor } from '../auth/two-factor-reset.ts';
import { migrate } from '../db/migrate.ts';
import { runWithDatabase } from './with-database.ts';

/**
 * `npm run two-factor:reset -- --email owner@example.com`: turns two-factor off for an owner who lost
 * both the authenticator and the backup codes, signs the account out everywhere and mails the owner.
 * Confirm who is asking first (docs/decisions/0019-account-security.md).
 */
const { values } = parseArgs({ options: { email: { type: 'string' } } });
if (!values.email) {
  console.error('Usage: npm run two-factor:reset -- --email owner@example.com');
  process.exit(2);
}
const email = values.email;

await runWithDatabase('reset two-factor authentication', async (database) => {
  await migrate(database);
  const outcome = await resetTwoFactor(database, email);
  console.log(
    {
      reset: `Two-factor authentication is off for ${email}; every session ended; the owner is told by e-mail.`,
      not_found: `No account with the address ${email}.`,
      not_enabled: `${email} does not use two-factor authentication: nothing changed.`,
    }[outcome],
  );
  if (outcome === 'not_found') process.exitCode = 1;
});
