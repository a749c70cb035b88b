import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../functions/db/embedded.ts';
import { waitForOutput } from '../bench/bench-server.ts';

/** What a checkout of the shop consists of, minus its build, data and dependencies. */
const TREE = ['src', 'functions', 'content', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

/**
 * A copy of the shop's tree in a temporary folder, sharing node_modules: tests that build, edit
 * sources or start dev servers run there, never in the working tree other tests read.
 */
export function copyTreeToTemp(prefix: string): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  // The embedded PostgreSQL runs as `postgres` when tests run as root: it must reach its folder.
  chmodSync(root, 0o755);
  // Timestamps kept: a copied build stays current for its copied sources (the build's fingerprint reads them).
  for (const entry of TREE) cpSync(path.resolve(entry), path.join(root, entry), { recursive: true, preserveTimestamps: true });
  symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'));
  return root;
}

/**
 * One of the shop's scripts started in a copied tree as from a terminal: without the test runner's
 * own variables (VITEST… change how Vite behaves), with what it prints collected.
 */
export function spawnInTree(root: string, script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
      ENV_FILE: '',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

/** `npm run dev` started in a copied tree on a free port, once it says it is ready. */
export async function startDevInTree(root: string, env: Record<string, string> = {}) {
  const port = await findFreePort();
  const dev = spawnInTree(root, 'functions/cli/dev.ts', { NODE_ENV: '', BETTER_AUTH_SECRET: '', PORT: String(port), ...env });
  await waitForOutput(dev.child, 'Dev server ready', 90_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${dev.output()}`);
  });
  return { ...dev, url: `http://127.0.0.1:${port}` };
}

/** `npm start` in a copied tree with a fixed secret and the developer tools off, as a server would run it. */
export const startInTree = (root: string, env: Record<string, string>) =>
  spawnInTree(root, 'functions/cli/start.ts', {
    BETTER_AUTH_SECRET: 'test-secret-test-secret-test-secret-42',
    DEV_TOOLS: 'off',
    ...env,
  });
