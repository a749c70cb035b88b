import '../load-env-file.ts';
import { spawn } from 'node:child_process';
import { provisionDatabase } from '../db/provision.ts';
import { runCommand } from './command.ts';

/** `npm run db:psql`: a psql shell on the shop's database (the embedded one is started if needed). */
let release = async () => {};
await runCommand(
  'open psql',
  async () => {
    const provisioned = await provisionDatabase(() => {});
    release = () => provisioned.stop();
    const code = await new Promise<number | null>((resolve, reject) => {
      const shell = spawn('psql', [provisioned.url], { stdio: 'inherit' });
      shell.once('exit', resolve);
      shell.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ENOENT'
            ? new Error(`psql is not installed (e.g. apt install postgresql-client); connect any client to ${provisioned.url}`)
            : error,
        ),
      );
    });
    process.exitCode = code ?? 0;
  },
  () => release(),
);
