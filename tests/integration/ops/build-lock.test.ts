import type { ChildProcess } from 'node:child_process';
import { rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../../bench/bench-server.ts';
import { copyTreeToTemp, spawnInTree } from '../../support/tree-copy.ts';

/**
 * Starts on a copy of the tree in a temporary folder (never the working tree other tests build and
 * read): three development starts at once after a change share one build; production never builds.
 */
let root: string;

beforeAll(() => {
  root = copyTreeToTemp('shop-tree-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const start = (env: Record<string, string>) =>
  spawnInTree(root, 'functions/cli/start.ts', {
    BETTER_AUTH_SECRET: 'test-secret-test-secret-test-secret-42',
    DEV_TOOLS: 'off',
    ...env,
  });

describe('npm start and the build', () => {
  it('three development starts at once on a changed tree build once and all serve', async () => {
    const shops: { child: ChildProcess; output: () => string; port: number }[] = [];
    try {
      for (let index = 0; index < 3; index++) {
        const port = await findFreePort();
        const shop = start({ NODE_ENV: 'development', PORT: String(port), DATA_DIR: path.join(root, `.data-${index}`) });
        shops.push({ ...shop, port });
      }
      await Promise.all(shops.map((shop) => waitForOutput(shop.child, 'Shop ready', 170_000)));
      const builders = shops.filter((shop) => shop.output().includes('Building the shop'));
      expect(builders).toHaveLength(1);
      for (const shop of shops) expect((await fetch(`http://127.0.0.1:${shop.port}/api/health`)).status).toBe(200);
    } finally {
      await Promise.all(shops.map((shop) => stopChild(shop.child)));
    }
  }, 180_000);

  it('in production refuses a build older than the sources, and a missing one, naming npm run build', async () => {
    const production = { NODE_ENV: 'production', PUBLIC_SITE_URL: 'https://shop.example', PORT: String(await findFreePort()) };
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src/pages/[lang]/about.astro'), later, later);
    const stale = start(production);
    expect(await stale.exited).toBe(1);
    expect(stale.output()).toMatch(/the build is older than the sources: run `npm run build`, then `npm start`/);
    expect(stale.output()).not.toContain('Building the shop');

    rmSync(path.join(root, 'dist'), { recursive: true, force: true });
    const missing = start(production);
    expect(await missing.exited).toBe(1);
    expect(missing.output()).toMatch(/there is no build: run `npm run build`/);
  }, 60_000);
});
