import type { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../bench/bench-server.ts';
import { expectFailingStartsExplained } from '../support/failing-starts.ts';
import { runRestartDrill, STOP_MODES } from '../support/restart-drill.ts';
import { copyTreeToTemp, spawnInTree, startDevInTree, startInTree } from '../support/tree-copy.ts';

/**
 * Drills of starting and stopping the shop, the long ones on a copy of the tree: `npm run test:sweep`
 * runs them (`npm test` keeps a fresh `npm run dev`, a production start's build check, a restart
 * after a stop and after a crash, and one refused start of each kind: tests/integration/ops).
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

describe('npm start after a stop', () => {
  it('is healthy after every kind of stop, starting again at once, with every committed row kept', async () => {
    const result = await runRestartDrill({
      cycles: STOP_MODES.length,
      dataDir: '.data/restart-sweep',
      readyLimitMs: 45_000,
    });
    expect(result.failures).toEqual([]);
    expect(result.healthy).toBe(STOP_MODES.length);
    expect(result.rowsMissing).toBe(0);
    expect(result.rowsWritten).toBe(STOP_MODES.length);
  }, 240_000);

  it('refuses every start that cannot succeed in one line saying what to do, with no stack trace, and exits 1', async () => {
    await expectFailingStartsExplained();
  }, 120_000);
});

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

describe('npm run dev after a kill', () => {
  // Last in this file: it edits the copied tree's English locale.
  it('leaves nothing that blocks the next start (its PostgreSQL is adopted), which shows an edited locale string without a restart', async () => {
    const dataDir = path.join(root, '.data-killed');
    const first = await startDevInTree(root, { DATABASE_URL: '', DATA_DIR: dataDir });
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const again = await startDevInTree(root, { DATABASE_URL: '', DATA_DIR: dataDir });
    try {
      expect((await fetch(`${again.url}/api/health`)).status).toBe(200);
      await expectEditedLocaleShown(again.url);
    } finally {
      await stopChild(again.child);
    }
  }, 180_000);
});
