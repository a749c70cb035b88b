import { createDb, type Db } from '../db/database.ts';
import { provisionDatabase } from '../db/provision.ts';
import { runCommand } from './command.ts';

/**
 * Runs a command-line entry point against the shop's database (DATABASE_URL, or the embedded server
 * started for the command and stopped after it), with runCommand's one-line failures. `before` runs
 * first, its failures explained the same way (settings to check before a database is started).
 */
export async function runWithDatabase(
  failedTo: string,
  work: (database: Db) => Promise<void>,
  { quiet = false, before = () => {} }: { quiet?: boolean; before?: () => void } = {},
): Promise<void> {
  let release = async () => {};
  await runCommand(
    failedTo,
    async () => {
      before();
      const provisioned = await provisionDatabase(quiet ? () => {} : undefined);
      const database = createDb(provisioned.url, 2);
      release = async () => {
        await database.destroy();
        await provisioned.stop();
      };
      await work(database);
    },
    () => release(),
  );
}
