import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The Chromium the end-to-end tests, Lighthouse and the accessibility sweeps drive. Debian's
 * `/usr/bin/chromium` when the machine has it (it starts faster); otherwise the Chromium that ships
 * inside the `@sparticuz/chromium` npm package, so `npm install` brings everything `npm test` needs.
 * `E2E_BROWSER` picks explicitly: `system`, `packaged`, or a path to a Chromium binary.
 */
export interface TestBrowser {
  kind: 'system' | 'packaged' | 'custom';
  executablePath: string;
  /** Flags for a headless run on a machine with no network beyond the registry. */
  args: string[];
}

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
// Without these, Chromium keeps calling Google's hosts, which this machine's closed network refuses.
const QUIET_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// The packaged build is chrome-headless-shell; it needs no zygote when running as root.
const PACKAGED_ARGS = [...QUIET_ARGS, '--no-zygote', '--disable-dev-shm-usage'];

export async function testBrowser(choice = process.env.E2E_BROWSER ?? ''): Promise<TestBrowser> {
  if (choice === 'system' || (choice === '' && existsSync(SYSTEM_CHROMIUM))) {
    if (!existsSync(SYSTEM_CHROMIUM)) throw new Error(`E2E_BROWSER=system, but ${SYSTEM_CHROMIUM} is not installed.`);
    return { kind: 'system', executablePath: SYSTEM_CHROMIUM, args: QUIET_ARGS };
  }
  if (choice === 'packaged' || choice === '')
    return { kind: 'packaged', executablePath: await packagedChromium(), args: PACKAGED_ARGS };
  if (!existsSync(choice)) throw new Error(`E2E_BROWSER=${choice}: no such file (use system, packaged or a path to Chromium).`);
  return { kind: 'custom', executablePath: choice, args: QUIET_ARGS };
}

/**
 * Unpacks the brotli-packed Chromium once into node_modules/.cache. Several processes (Playwright's
 * workers each load the config) may ask at once: each unpacks into its own staging folder and the
 * first rename wins, so nobody ever starts a half-written binary.
 */
async function packagedChromium(): Promise<string> {
  // The package exports only its entry (build/index.js); its folder is two levels up.
  const packageDir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..');
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const target = path.resolve('node_modules/.cache', `sparticuz-chromium-${version}`);
  const binary = path.join(target, 'chromium');
  if (existsSync(binary)) return binary;

  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const previous = process.env.TMPDIR;
  // The package unpacks into os.tmpdir(); point it at our staging folder for the duration.
  process.env.TMPDIR = staging;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    await chromium.executablePath(path.join(packageDir, 'bin'));
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  try {
    renameSync(staging, target);
  } catch {
    // Another process won the race: its copy is complete, ours is not needed.
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}
