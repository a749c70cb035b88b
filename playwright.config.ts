import { defineConfig, devices } from '@playwright/test';
import { testBrowser } from './tests/support/browser.ts';
import { COMPILE_CACHE } from './functions/cli/compile-cache.ts';

// The shop server reuses what Node compiled before (see compile-cache.ts).
process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE;

const PORT = Number(process.env.E2E_PORT ?? 4391);
// localhost, not 127.0.0.1: browsers refuse an IP address as a passkey's relying party (WebAuthn).
export const BASE_URL = `http://localhost:${PORT}`;
const browser = await testBrowser();
// Once, from the runner (its workers load this file too).
if (!process.env.TEST_WORKER_INDEX) console.log(`End-to-end browser: ${browser.kind} Chromium (${browser.executablePath})`);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // Three browsers on two cores: a test waiting on the server, a scheduled post or a second shop leaves
  // a core idle that a third one fills (two used 77 % of the machine; Playwright's phase of npm test
  // took 3.5 minutes instead of 4.0).
  workers: 3,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: browser.executablePath, args: browser.args },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // The real server on real PostgreSQL, with its own data folder.
    command: 'node functions/cli/start.ts',
    url: `${BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    // The suite signs up many accounts from one address; rate limits have their own HTTP tests.
    env: {
      ENV_FILE: '',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_SITE_URL: BASE_URL,
      DATA_DIR: '.data/e2e',
      NODE_ENV: 'development',
      AUTH_RATE_LIMIT: 'off',
      // Scheduled blog posts go live within a second (the default is 15 s).
      BLOG_SCHEDULER_INTERVAL_MS: '500',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
