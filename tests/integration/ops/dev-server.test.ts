import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyTreeToTemp, startDevInTree } from '../../support/tree-copy.ts';

/**
 * `npm run dev` as an engineer joining the project runs it: no variable set, a fresh data folder,
 * in a copy of the tree (never the working tree other tests build and read). A start after a kill,
 * edits that show without a restart and running beside `npm start` are drills of `npm run test:sweep`
 * (tests/sweep/start-drills.test.ts).
 */
let root: string;

beforeAll(() => {
  root = copyTreeToTemp('shop-dev-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const startDev = (env: Record<string, string> = {}) => startDevInTree(root, env);

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
  }, 180_000);
});
