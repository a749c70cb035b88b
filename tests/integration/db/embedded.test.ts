import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
});
