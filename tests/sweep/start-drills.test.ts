import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../bench/bench-server.ts';
import { copyTreeToTemp, spawnInTree, startDevInTree, startInTree } from '../support/tree-copy.ts';

/**
 * Drills of starting the shop that build it or run two servers at once, each on a copy of the tree:
 * `npm run test:sweep` runs them (`npm test` keeps a fresh `npm run dev`, a production start's build
 * check and a restart after each kind of stop: tests/integration/ops).
 */
let root: string;

beforeAll(() => {
  root = copyTreeToTemp('shop-drills-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const start = (env: Record<string, string>) => startInTree(root, env);

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
});

describe('npm run dev', () => {
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
      const dev = await startDevInTree(root, { DATABASE_URL: '', DATA_DIR: dataDir });
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
