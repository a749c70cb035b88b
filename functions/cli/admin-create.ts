import { parseArgs } from 'node:util';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { ensureUser } from '../auth/users.ts';
import { createDb } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { provisionDatabase } from '../db/provision.ts';
import { env } from '../env.ts';

/** `npm run admin:create -- --email a@b.c --password … [--name …]`: creates an admin, or promotes an existing user. */
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
if (!values.email || !values.password || values.password.length < 8) {
  console.error(
    'Usage: npm run admin:create -- --email admin@example.com --password "at least 8 characters" [--name "Full Name"]',
  );
  process.exit(2);
}

ensureDevelopmentSecret(env().DATA_DIR);
const provisioned = await provisionDatabase();
const database = createDb(provisioned.url, 2);
try {
  await migrate(database);
  const result = await ensureUser(database, {
    email: values.email,
    password: values.password,
    fullName: values.name ?? 'Administrator',
    role: 'admin',
  });
  console.log(result.created ? `Created admin ${values.email}.` : `Promoted ${values.email} to admin (password unchanged).`);
} finally {
  await database.destroy();
  await provisioned.stop();
}
