import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild } from '../bench/bench-server.ts';

/** Why PgBouncer cannot run here, or undefined when it can (Debian's `pgbouncer` package). */
export function pgBouncerMissing(): string | undefined {
  const found = spawnSync('pgbouncer', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0)
    return 'pgbouncer is not installed (apt-get install -y --no-install-recommends pgbouncer): the pooler tests do not run';
  return undefined;
}

export interface PgBouncer {
  /** `serverUrl` with PgBouncer's address in front (any database name passes through). */
  url(database: string): string;
  stop(): Promise<void>;
}

/**
 * A real PgBouncer in transaction mode in front of `serverUrl`'s PostgreSQL, on a free port, with its
 * own ini and auth file. It refuses to run as root (and still exits 0), so as root it runs as `postgres`,
 * and its files are readable by that user; it counts as started only once it answers a query.
 */
export async function startPgBouncer(serverUrl: string, { poolSize = 4 }: { poolSize?: number } = {}): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const folder = await mkdtemp(path.join(tmpdir(), 'pgbouncer-'));
  const port = await findFreePort();
  const ini = path.join(folder, 'pgbouncer.ini');
  await writeFile(path.join(folder, 'users.txt'), `"${user.replaceAll('"', '""')}" "${password.replaceAll('"', '""')}"\n`);
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname === 'localhost' ? '127.0.0.1' : server.hostname} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      "unix_socket_dir = ''",
      'auth_type = trust',
      `auth_file = ${path.join(folder, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      // pg's client sends nothing unusual at start; tools that do are told to drop it here, not refused.
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${path.join(folder, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  await chmod(folder, 0o777);
  for (const file of ['pgbouncer.ini', 'users.txt']) await chmod(path.join(folder, file), 0o644);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: 'ignore' });
  const url = (database: string) => {
    const pooled = new URL(serverUrl);
    pooled.hostname = '127.0.0.1';
    pooled.port = String(port);
    pooled.pathname = `/${database}`;
    return pooled.toString();
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url('postgres') });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`PgBouncer did not start listening on ${port}: ${(error as Error).message}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      await stopChild(child);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
