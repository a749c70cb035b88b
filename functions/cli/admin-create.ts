import '../load-env-file.ts';
import { parseArgs } from 'node:util';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { ensureUser } from '../auth/users.ts';
import { migrate } from '../db/migrate.ts';
import { env } from '../env.ts';
import { runWithDatabase } from './with-database.ts';

/** `npm run admin:create -- --email a@b.c --password … [--name …]`: creates an admin, or promotes an existing user. */
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
const { email, password, name } = values;
if (!email || !password || password.length < 8) {
  console.error(
    'Usage: npm run admin:create -- --email admin@example.com --password "at least 8 characters" [--name "Full Name"]',
  );
  process.exit(2);
}

await runWithDatabase(
  'create the admin',
  async (database) => {
    await migrate(database);
    const result = await ensureUser(database, { email, password, fullName: name ?? 'Administrator', role: 'admin' });
    console.log(result.created ? `Created admin ${email}.` : `Promoted ${email} to admin (password unchanged).`);
  },
  { before: () => ensureDevelopmentSecret(env().DATA_DIR) },
);
