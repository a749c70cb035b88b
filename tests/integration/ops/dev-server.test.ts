import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../../bench/bench-server.ts';
import { copyTreeToTemp, spawnInTree } from '../../support/tree-copy.ts';

/**
 * `npm run dev` as an engineer joining the project runs it: no variable set, a fresh data folder,
 * and edits that show without a restart. It runs in a copy of the tree (never the working tree
 * other tests build and read).
 */
let root: string;

beforeAll(() => {
  root = copyTreeToTemp('shop-dev-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function startDev(env: Record<string, string> = {}) {
  const port = await findFreePort();
  const dev = spawnInTree(root, 'functions/cli/dev.ts', { NODE_ENV: '', BETTER_AUTH_SECRET: '', PORT: String(port), ...env });
  await waitForOutput(dev.child, 'Dev server ready', 90_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${dev.output()}`);
  });
  return { ...dev, url: `http://127.0.0.1:${port}` };
}

/** An edited locale string shows without a restart. */
async function expectEditedLocaleShown(url: string) {
  expect(await (await fetch(`${url}/en/`)).text()).toContain('Learn one practical skill in under 30 minutes');
  const file = path.join(root, 'src/i18n/locales/en.json');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('Learn one practical skill in under 30 minutes', 'Edited while running'),
  );
  await expect
    .poll(async () => (await (await fetch(`${url}/en/`)).text()).includes('Edited while running'), {
      timeout: 10_000,
      interval: 500,
    })
    .toBe(true);
}

describe('npm run dev', () => {
  it('on a fresh data folder with no variable set: home, catalogue JSON and a signed-in dashboard; Ctrl-C stops it all; after a kill it starts again and shows an edited locale string without a restart', async () => {
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
      await expectEditedLocaleShown(again.url);
    } finally {
      await stopChild(again.child);
    }
  }, 180_000);

  it('runs beside npm start on another port, sharing the embedded database, and leaves it running for npm start', async () => {
    const dataDir = path.join(root, '.data-shared');
    const port = await findFreePort();
    const shop = spawnInTree(root, 'functions/cli/start.ts', {
      NODE_ENV: '',
      BETTER_AUTH_SECRET: '',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
    });
    try {
      await waitForOutput(shop.child, 'Shop ready', 120_000);
      const dev = await startDev({ DATABASE_URL: '', DATA_DIR: dataDir });
      expect(dev.output()).toContain('Sharing PostgreSQL');
      expect((await fetch(`${dev.url}/api/health`)).status).toBe(200);
      dev.child.kill('SIGINT');
      await dev.exited;
      // The database npm start uses is still there.
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    } finally {
      await stopChild(shop.child);
    }
  }, 180_000);
});
