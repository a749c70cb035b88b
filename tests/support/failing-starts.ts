import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { expect } from 'vitest';
import { findFreePort } from '../../functions/db/embedded.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  BETTER_AUTH_SECRET: 'x'.repeat(32),
  PUBLIC_SITE_URL: 'https://shop.example',
  PRODUCTION_CHECKS: '',
  DEV_TOOLS: '',
  STRIPE_API_URL: '',
};

type FailingStart = readonly [env: Record<string, string>, message: RegExp];

/** Every way `npm start` refuses to start, with the line it must say (the busy port is passed in). */
function failingStarts(busyPort: number): FailingStart[] {
  return [
    [{ PORT: 'not-a-port' }, /Invalid environment configuration:\n\s+PORT:/],
    // A production start always checks its build: the flag that skips it is refused.
    [PRODUCTION, /--no-build skips the build check and is refused in production/],
    [
      { PORT: String(busyPort) },
      new RegExp(`port ${busyPort} on 127\\.0\\.0\\.1 is already in use: stop the other server or set PORT`),
    ],
    [
      { DATABASE_URL: 'postgres://shop:secret@127.0.0.1:1/shop' },
      /cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\): check DATABASE_URL/,
    ],
    [
      { NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(32), DEV_TOOLS: 'on', PRODUCTION_CHECKS: '' },
      /DEV_TOOLS: cannot be on in production/,
    ],
    [{ DEMO_PAYMENTS: 'on' }, /DEMO_PAYMENTS: was replaced by DEV_TOOLS=on/],
    // Production refuses what would misdirect or fail buyers, before touching anything.
    [{ ...PRODUCTION, PUBLIC_SITE_URL: '' }, /✗ PUBLIC_SITE_URL is required/],
    [{ ...PRODUCTION, PUBLIC_SITE_URL: 'http://shop.example' }, /✗ PUBLIC_SITE_URL must start with https:\/\//],
    [{ ...PRODUCTION, PUBLIC_SITE_URL: 'https://localhost:8443' }, /✗ PUBLIC_SITE_URL points at this machine/],
    [{ ...PRODUCTION, STRIPE_API_URL: 'http://127.0.0.1:9' }, /✗ STRIPE_API_URL is for tests only/],
    [{ ...PRODUCTION, PUBLIC_SITE_URL: 'https://[::ffff:127.0.0.1]' }, /✗ PUBLIC_SITE_URL points at this machine/],
    [
      { ...PRODUCTION, STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
      /✗ STRIPE_SECRET_KEY is a test key/,
    ],
    [
      { ...PRODUCTION, IYZICO_API_KEY: 'sandbox-abc', IYZICO_SECRET_KEY: 'sandbox-def' },
      /✗ IYZICO_BASE_URL is iyzico's sandbox[^]*✗ IYZICO_API_KEY \/ IYZICO_SECRET_KEY are sandbox keys/,
    ],
  ];
}

/** `npm start` run to its refusal, with what it printed. */
function start(env: Record<string, string>, dataDir: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['functions/cli/start.ts', '--no-build'], {
      env: { ...process.env, HOST: '127.0.0.1', NODE_ENV: 'development', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/**
 * Each refusal says in one line what to do, with no stack trace, and exits 1. `npm test` runs the
 * first `count` (a bad variable, a production check); `npm run test:sweep` runs them all.
 */
export async function expectFailingStartsExplained(count = Infinity): Promise<void> {
  const busy = createServer();
  const port = await findFreePort();
  await new Promise<void>((resolve) => busy.listen(port, '127.0.0.1', resolve));
  try {
    const cases = failingStarts(port).slice(0, count);
    // At once, each in its own data folder (none of them may get as far as starting PostgreSQL).
    const results = await Promise.all(
      cases.map(async ([env, message], index) => ({ message, ...(await start(env, `.data/start-failure/${index}`)) })),
    );
    for (const { code, output, message } of results) {
      expect(code, output).toBe(1);
      expect(output).toMatch(message);
      expect(output).toContain('Could not start the shop:');
      expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    }
  } finally {
    busy.close();
  }
}
