import '../load-env-file.ts';
import { parseArgs } from 'node:util';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { ensureUser, type EnsuredUser } from '../auth/users.ts';
import { migrate } from '../db/migrate.ts';
import { env } from '../env.ts';
import { runWithDatabase } from './with-database.ts';

/**
 * `npm run admin:create -- --email a@b.c --password … [--name …] [--promote-verified]`: creates an
 * admin, or takes over an account at that address that never proved it (the command is the proof),
 * or, with --promote-verified, makes an account whose owner proved the address an admin.
 */
const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    'promote-verified': { type: 'boolean', default: false },
  },
});
const { email, password, name } = values;
if (!email || !password || password.length < 8) {
  console.error(
    'Usage: npm run admin:create -- --email admin@example.com --password "at least 8 characters" [--name "Full Name"] [--promote-verified]',
  );
  process.exit(2);
}

await runWithDatabase(
  'create the admin',
  async (database) => {
    await migrate(database);
    const result = await ensureUser(
      database,
      { email, password, fullName: name ?? 'Administrator', role: 'admin' },
      { promoteVerified: values['promote-verified'] },
    );
    console.log(report(email, result));
    if (result.outcome === 'refused') process.exitCode = 1;
  },
  { before: () => ensureDevelopmentSecret(env().DATA_DIR) },
);

/** Exactly what the command did, in the operator's words. */
function report(email: string, result: EnsuredUser): string {
  switch (result.outcome) {
    case 'created':
      return `Created admin ${email} with the given password.`;
    case 'claimed': {
      const { signInMethods, sessions, twoFactor, passkeys } = result.claimed;
      return [
        `Claimed ${email}: its account had never proved the address, so whoever opened it loses it.`,
        `  Removed: ${signInMethods} password(s) and sign-in identities, ${sessions} session(s), ${passkeys} passkey(s), two-factor ${twoFactor ? 'authenticator' : '(none was set up)'}.`,
        '  Set the given password, marked the address verified, made it an admin.',
      ].join('\n');
    }
    case 'promoted':
      return `Promoted ${email} to admin (--promote-verified). Its owner proved the address: password, sessions, two-factor and passkeys unchanged.`;
    case 'unchanged':
      return `${email} is already an admin with a proven address: nothing changed (the given password was not set).`;
    case 'refused':
      return [
        `Refused: ${email} belongs to an account whose owner proved the address; nothing changed.`,
        '  To make that account an admin (its password stays its owner’s), run the command again with --promote-verified.',
      ].join('\n');
  }
}
