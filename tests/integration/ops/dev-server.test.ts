import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../../bench/bench-server.ts';

/**
 * `npm run dev` as an engineer joining the project runs it: no variable set, a fresh data folder,
 * and edits that show without a restart. It runs in a copy of the tree (never the working tree
 * other tests build and read).
 */
const TREE = ['src', 'functions', 'content', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'shop-dev-'));
  // The embedded PostgreSQL runs as `postgres` when tests run as root: it must reach its folder.
  chmodSync(root, 0o755);
  for (const entry of TREE) cpSync(path.resolve(entry), path.join(root, entry), { recursive: true });
  symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function startDev(env: Record<string, string> = {}) {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['functions/cli/dev.ts'], {
    cwd: root,
    // As from a terminal: without the test runner's own variables (VITEST… change how Vite behaves).
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
      ENV_FILE: '',
      NODE_ENV: '',
      BETTER_AUTH_SECRET: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForOutput(child, 'Dev server ready', 90_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${output}`);
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

describe('npm run dev', () => {
  it('on a fresh data folder with no variable set: home, catalogue JSON and a signed-in dashboard; Ctrl-C stops it all', async () => {
    const dataDir = path.join(root, '.data-fresh');
    const dev = await startDev({ DATABASE_URL: '', DATA_DIR: dataDir });
    try {
      expect(dev.output()).toMatch(/Database: postgres:\/\/\w+:\*{4}@127\.0\.0\.1:\d+\/shop/);
      expect((await fetch(`${dev.url}/en/`)).status).toBe(200);
      const catalogue = (await (await fetch(`${dev.url}/api/courses?language=tr`)).json()) as { courses: unknown[] };
      expect(catalogue.courses.length).toBeGreaterThan(0);
      const signIn = await fetch(`${dev.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: dev.url },
        body: JSON.stringify({ email: 'buyer@demo.microcourses.example', password: 'demo-buyer-2026' }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');
      const dashboard = await fetch(`${dev.url}/en/dashboard`, { headers: { cookie }, redirect: 'manual' });
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain('Demo Buyer');
    } finally {
      dev.child.kill('SIGINT');
      await new Promise((resolve) => dev.child.once('exit', resolve));
    }
    // Everything it started stopped: the embedded PostgreSQL too.
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // Killed outright, it leaves nothing that blocks the next start (its PostgreSQL is adopted).
    const killed = await startDev({ DATABASE_URL: '', DATA_DIR: dataDir });
    killed.child.kill('SIGKILL');
    await new Promise((resolve) => killed.child.once('exit', resolve));
    const again = await startDev({ DATABASE_URL: '', DATA_DIR: dataDir });
    try {
      expect((await fetch(`${again.url}/api/health`)).status).toBe(200);
    } finally {
      await stopChild(again.child);
    }
  }, 150_000);

  it('shows an edited locale string without a restart', async () => {
    const dev = await startDev({ DATA_DIR: path.join(root, '.data-reload') });
    try {
      expect(await (await fetch(`${dev.url}/en/`)).text()).toContain('Learn one practical skill in under 30 minutes');
      const file = path.join(root, 'src/i18n/locales/en.json');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace('Learn one practical skill in under 30 minutes', 'Edited while running'),
      );
      await expect
        .poll(async () => (await (await fetch(`${dev.url}/en/`)).text()).includes('Edited while running'), {
          timeout: 10_000,
          interval: 500,
        })
        .toBe(true);
    } finally {
      await stopChild(dev.child);
    }
  }, 150_000);
});
