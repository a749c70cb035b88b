import { cpSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { copyTreeToTemp, startInTree } from '../../support/tree-copy.ts';

/**
 * Starts on a copy of the tree in a temporary folder (never the working tree other tests build and
 * read): production never builds. Three development starts at once sharing one build is a drill of
 * `npm run test:sweep` (tests/sweep/start-drills.test.ts).
 */
let root: string;

beforeAll(() => {
  root = copyTreeToTemp('shop-tree-');
  // The working tree's build (current: the test run built it), current in the copy too until a source changes.
  cpSync(path.resolve('dist'), path.join(root, 'dist'), { recursive: true, preserveTimestamps: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const start = (env: Record<string, string>) => startInTree(root, env);

describe('npm start and the build', () => {
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
