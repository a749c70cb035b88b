import { spawn } from 'node:child_process';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../bench/bench-server.ts';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';
import { axeViolations } from '../support/accessibility.ts';
import { expect, test as base, uniqueEmail, waitForIslands, type Page } from './fixtures.ts';

/**
 * Sign-in with an OpenID provider in Chromium, against a real provider (`oidc-provider`) started
 * here, and a shop of its own configured with it (the suite's shared shop offers no provider, so
 * no other test sees the button): the button, the provider's own login and consent pages, Settings'
 * list of identities and its unlink rule.
 */
const test = base.extend<{ oidc: { provider: TestOidcProvider } }, { oidcWorld: { provider: TestOidcProvider; url: string } }>({
  oidcWorld: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none.
    async ({}, use) => {
      const provider = await startOidcProvider();
      const port = await findFreePort();
      const child = spawn(process.execPath, ['functions/cli/start.ts', '--no-build'], {
        env: {
          ...process.env,
          ENV_FILE: '',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: '.data/e2e-oidc',
          NODE_ENV: 'development',
          AUTH_RATE_LIMIT: 'off',
          ...provider.env('Test ID'),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await waitForOutput(child, 'Shop ready', 150_000);
        await use({ provider, url: `http://127.0.0.1:${port}` });
      } finally {
        await stopChild(child);
        await provider.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  oidc: async ({ oidcWorld, expectConsoleErrors }, use) => {
    // The provider's own pages @import a web font from the internet, which this machine cannot reach.
    expectConsoleErrors(/Failed to load resource: net::ERR_NAME_NOT_RESOLVED \(http:\/\/localhost:\d+\/interaction\//);
    await use({ provider: oidcWorld.provider });
  },
  baseURL: async ({ oidcWorld }, use) => use(oidcWorld.url),
});

// One shop with one data folder: both tests run in the worker that started it.
test.describe.configure({ mode: 'serial' });

let logins = 0;

/** A person at the provider, with the claims the test gives them. */
function personAtProvider(provider: TestOidcProvider, email: string, verified: boolean): string {
  const login = `e2e-${Date.now().toString(36)}-${logins++}`;
  provider.people.set(login, { email, email_verified: verified, name: 'Provider Person' });
  return login;
}

/** The provider's own pages: its login form (any password), then its consent form. */
async function throughProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('sign in with an OpenID provider, see it in Settings, unlink it once a password is set (English)', async ({
  page,
  oidc,
}) => {
  // The shared shop has no provider configured: no button there.
  const shared = `http://127.0.0.1:${process.env.E2E_PORT ?? 4391}`;
  await page.goto(`${shared}/en/login`);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /Continue with/ })).toHaveCount(0);

  const email = uniqueEmail('openid');
  const login = personAtProvider(oidc.provider, email, true);
  await page.goto('/en/login');
  await waitForIslands(page);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Continue with Test ID' }).click();
  await throughProvider(page, login);
  await expect(page).toHaveURL(/\/en\/dashboard$/);

  await page.goto('/en/dashboard/settings');
  await waitForIslands(page);
  const providers = page.getByRole('region', { name: 'Sign-in providers' });
  await expect(providers.getByRole('listitem')).toHaveCount(1);
  await expect(providers.getByRole('listitem')).toContainText('Test ID');
  await expect(providers.getByRole('listitem')).toContainText(email);
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 800 });
  await providers.getByRole('button', { name: 'Unlink Test ID' }).click();
  await expect(providers.getByRole('alert')).toHaveText(
    'This is your only way to sign in. Set a password first, then unlink it.',
  );

  const password = page.getByRole('region', { name: 'Set a password' });
  await password.getByLabel('New password', { exact: true }).fill('correct horse 2026');
  await password.getByLabel('Confirm new password', { exact: true }).fill('correct horse 2026');
  await password.getByRole('button', { name: 'Set a password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password set' })).toBeVisible();
  await waitForIslands(page);
  await page.getByRole('region', { name: 'Sign-in providers' }).getByRole('button', { name: 'Unlink Test ID' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Test ID is unlinked.' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Sign-in providers' })).toHaveCount(0);
});

test('a provider that has not verified an existing address is refused; a verified one signs in, and is unlinked once a password is set (Turkish)', async ({
  page,
  oidc,
  newBuyer,
}) => {
  const { email: taken } = await newBuyer('openid-taken', 'tr');
  await page.context().clearCookies();
  await page.goto('/tr/login');
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Test ID ile devam et' }).click();
  await throughProvider(page, personAtProvider(oidc.provider, taken, false));
  await expect(page).toHaveURL(/\/tr\/login\?signin=oidc&error=account_not_linked$/);
  await expect(page.getByRole('alert')).toContainText(
    'Bu e-posta adresiyle açılmış bir hesap zaten var ve Test ID bu hesaba bağlanmadı',
  );

  const email = uniqueEmail('openid-tr');
  // Someone else at the provider: its session of the first person ends (the shop's cookies stay).
  await page.context().clearCookies({ domain: 'localhost' });
  await page.getByRole('button', { name: 'Test ID ile devam et' }).click();
  await throughProvider(page, personAtProvider(oidc.provider, email, true));
  await expect(page).toHaveURL(/\/tr\/dashboard$/);
  await page.goto('/tr/dashboard/settings');
  await waitForIslands(page);
  const providers = page.getByRole('region', { name: 'Giriş sağlayıcıları' });
  await expect(providers.getByRole('listitem')).toContainText(email);
  await providers.getByRole('button', { name: 'Test ID bağlantısını kaldır' }).click();
  await expect(providers.getByRole('alert')).toHaveText(
    'Bu, tek giriş yolunuz. Önce bir şifre belirleyin, ardından bağlantıyı kaldırın.',
  );
  const password = page.getByRole('region', { name: 'Şifre belirle' });
  await password.getByLabel('Yeni şifre', { exact: true }).fill('doğru at pili 2026');
  await password.getByLabel('Yeni şifreyi onayla', { exact: true }).fill('doğru at pili 2026');
  await password.getByRole('button', { name: 'Şifre belirle' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Şifre belirlendi' })).toBeVisible();
  await waitForIslands(page);
  await page
    .getByRole('region', { name: 'Giriş sağlayıcıları' })
    .getByRole('button', { name: 'Test ID bağlantısını kaldır' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Test ID bağlantısı kaldırıldı.' })).toBeVisible();
});
