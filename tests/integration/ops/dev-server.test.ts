import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../bench/bench-server.ts';
import { copyTreeToTemp, startDevInTree } from '../../support/tree-copy.ts';

/**
 * `npm run dev` as an engineer joining the project runs it: no variable set, a fresh data folder,
 * and edits that show without a restart. It runs in a copy of the tree (never the working tree
 * other tests build and read). Running beside `npm start` is a drill of `npm run test:sweep`
 * (tests/sweep/start-drills.test.ts).
 */
let root: string;

beforeAll(() => {
  root = copyTreeToTemp('shop-dev-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const startDev = (env: Record<string, string> = {}) => startDevInTree(root, env);

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
});
