import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The inputs that change what `astro build` produces. */
const BUILD_INPUTS = ['src', 'functions', 'content', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];
const FINGERPRINT_FILE = 'dist/.build-fingerprint';
export const SERVER_ENTRY = 'dist/server/entry.mjs';

/** Runs `astro build` when dist/ is missing or older than its sources. Returns whether it built. */
export function buildIfNeeded(root = process.cwd()): boolean {
  const fingerprint = fingerprintOf(root);
  const current = existsSync(path.join(root, FINGERPRINT_FILE)) ? readFileSync(path.join(root, FINGERPRINT_FILE), 'utf8') : '';
  if (current === fingerprint && existsSync(path.join(root, SERVER_ENTRY))) return false;
  console.log('Building the shop (first start or changed sources)…');
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  // Always a production build: a build made under NODE_ENV=test would compile JSX for React's
  // development runtime, which a production server does not load.
  const result = spawnSync(process.execPath, [astro, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('`astro build` failed; see the output above.');
  writeFileSync(path.join(root, FINGERPRINT_FILE), fingerprint);
  return true;
}

function fingerprintOf(root: string): string {
  const hash = createHash('sha256');
  // Pre-rendered pages carry absolute links built from the public origin.
  hash.update(`PUBLIC_SITE_URL=${process.env.PUBLIC_SITE_URL ?? ''}\n`);
  for (const input of BUILD_INPUTS) {
    for (const file of listFiles(path.join(root, input))) {
      const info = statSync(file);
      hash.update(`${path.relative(root, file)}:${info.size}:${info.mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

function listFiles(target: string): string[] {
  if (!existsSync(target)) return [];
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules' ? [] : listFiles(path.join(target, entry.name)),
  );
}
