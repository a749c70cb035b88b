import '../load-env-file.ts';
import { parseArgs } from 'node:util';
import { ensureDevelopmentSecret } from '../auth/secret.ts';
import { ensureUser } from '../auth/users.ts';
import { createDb } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { provisionDatabase } from '../db/provision.ts';
import { env } from '../env.ts';
import { runCommand } from './command.ts';

/** `npm run admin:create -- --email a@b.c --password … [--name …]`: creates an admin, or promotes an existing user. */
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
const { email, password, name } = values;
if (!email || !password || password.length < 8) {
  console.error(
    'Usage: npm run admin:create -- --email admin@example.com --password "at least 8 characters" [--name "Full Name"]',
  );
  process.exit(2);
}

let release = async () => {};
await runCommand(
  'create the admin',
  async () => {
    ensureDevelopmentSecret(env().DATA_DIR);
    const provisioned = await provisionDatabase();
    const database = createDb(provisioned.url, 2);
    release = async () => {
      await database.destroy();
      await provisioned.stop();
    };
    await migrate(database);
    const result = await ensureUser(database, {
      email: email,
      password: password,
      fullName: name ?? 'Administrator',
      role: 'admin',
    });
    console.log(result.created ? `Created admin ${email}.` : `Promoted ${email} to admin (password unchanged).`);
  },
  () => release(),
);
