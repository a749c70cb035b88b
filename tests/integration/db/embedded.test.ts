import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../../functions/db/embedded.ts';
import { isRunning } from '../../../functions/db/processes.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-pg-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function query(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ n: number }>('SELECT 41 + 1 AS n');
  await client.end();
  return rows[0]!.n;
}

describe('embedded PostgreSQL', () => {
  it('recovers when its previous owner was killed with SIGKILL', async () => {
    const fixture = path.resolve('tests/support/fixtures/hold-embedded-postgres.ts');
    const owner = spawn(process.execPath, [fixture, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      owner.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && resolve());
      owner.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
    });
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));

    const orphanPid = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    expect(isRunning(orphanPid)).toBe(true);

    const adopted = await startEmbeddedPostgres({ dataDir });
    expect(await query(adopted.url)).toBe(42);
    await adopted.stop();
    expect(isRunning(orphanPid)).toBe(false);

    const fresh = await startEmbeddedPostgres({ dataDir });
    expect(await query(fresh.url)).toBe(42);
    await fresh.stop();
  });

  // A stop that kills the group while the lock is being written must not block every later start.
  it('starts at once over a lock file that names no process (empty, garbage)', async () => {
    for (const content of ['', 'not a pid\n\u0000']) {
      await writeFile(path.join(dataDir, 'postgres.lock'), content);
      const startedAt = Date.now();
      const server = await startEmbeddedPostgres({ dataDir });
      expect(await query(server.url)).toBe(42);
      await server.stop();
      expect(Date.now() - startedAt).toBeLessThan(10_000);
    }
    expect((await readdir(dataDir)).filter((name) => name.startsWith('postgres.lock'))).toEqual([]);
  });
});
