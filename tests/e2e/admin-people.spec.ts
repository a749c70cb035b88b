import { apiSignUp, DEMO, expect, test, uniqueEmail, type APIRequestContext, type Page, waitForIslands } from './fixtures.ts';

const ADMIN = DEMO.admin;

/** The admin, signed in through the API, on an admin page. */
async function openAsAdmin(page: Page, signIn: (account: typeof ADMIN) => Promise<void>, path: string) {
  await signIn(ADMIN);
  await page.goto(path);
  await waitForIslands(page);
}

/** A completed demo purchase of the first course a catalogue search finds, as a guest. */
async function buyThroughDemo(request: APIRequestContext, origin: string, lang: 'en' | 'tr', search: string, email: string) {
  const headers = { origin };
  const catalogue = await (await request.get(`/api/courses?lang=${lang}&search=${encodeURIComponent(search)}`)).json();
  const courseId = catalogue.courses[0].id as string;
  const checkout = await request.post('/api/checkout', {
    headers,
    data: { courseId, email, fullName: 'Admin View Buyer', language: lang, acceptTerms: true, waiveWithdrawal: true },
  });
  expect(checkout.status()).toBe(200);
  const paymentId = (await checkout.json()).redirectUrl.split('/').pop() as string;
  expect(paymentId).toMatch(/^demo_/);
  expect((await request.post(`/api/checkout/demo/${paymentId}`, { headers })).status()).toBe(200);
}

test('the admin overview shows revenue per currency, recent sales with a refund, the logs viewer and a connected database', async ({
  page,
  request,
  baseURL,
  signIn,
}) => {
  const email = uniqueEmail('overview');
  await buyThroughDemo(request, baseURL!, 'tr', 'Telefonla', email);
  await buyThroughDemo(request, baseURL!, 'en', 'Weekly Review', email);
  // An error a browser reported, to find in the log viewer.
  const marker = `e2e-log-${Date.now()}`;
  expect(
    (
      await request.post('/api/client-errors', {
        headers: { origin: baseURL! },
        data: { level: 'error', message: `${marker} happened`, url: `${baseURL}/en/` },
      })
    ).status(),
  ).toBe(204);

  await openAsAdmin(page, signIn, '/en/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const revenue = page.getByTestId('revenue-card');
  await expect(revenue).toContainText('€');
  await expect(revenue).toContainText('₺');
  await expect(revenue).toContainText(' · ');
  await expect(page.getByTestId('sales-card')).toContainText(/Completed purchases: \d+ paid · \d+ free/);
  for (const area of ['Courses', 'Blog posts', 'Categories', 'Users', 'Analytics']) {
    await expect(
      page.getByRole('region', { name: 'Quick links' }).getByRole('link', { name: new RegExp(`^${area}`) }),
    ).toBeVisible();
  }

  const sales = page.getByRole('table', { name: 'Recent sales' });
  const row = sales.getByRole('row').filter({ hasText: email }).filter({ hasText: 'The 30-Minute Weekly Review' });
  await expect(row.getByText('€4.50')).toBeVisible();
  await expect(row.getByText('Completed')).toBeVisible();
  await row.getByRole('button', { name: /^Refund/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Refund this sale?' });
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sale refunded. Access to the course has ended.' })).toBeVisible();
  await expect(row.getByText('Refunded')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Refund/ })).toHaveCount(0);

  const debug = page.getByRole('region', { name: 'Debug panel' });
  await expect(debug.getByTestId('debug-node-env')).toHaveText('development');
  await expect(debug).toContainText('1.0.0');
  await expect(debug).toContainText(ADMIN.email);
  await expect(debug.getByTestId('debug-network')).toHaveText('Online');
  await debug.getByRole('button', { name: 'Test database connection' }).click();
  await expect(debug.getByTestId('debug-database')).toHaveText(/^Connected \(\d+ ms\)$/);

  await page.getByRole('button', { name: 'Application logs' }).click();
  const logs = page.getByRole('dialog', { name: 'Application logs' });
  await expect(logs.getByText(`${marker} happened`)).toBeVisible();
  await logs.getByLabel('Search logs').fill(marker);
  await expect(logs.getByRole('listitem')).toHaveCount(1);
  await logs.getByLabel('Level').selectOption('info');
  await expect(logs.getByText('No log entries.')).toBeVisible();
  await logs.getByLabel('Level').selectOption('error');
  await expect(logs.getByRole('listitem')).toHaveCount(1);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    logs.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^application-logs-.+\.json$/);
  const exported = JSON.parse(Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8'));
  expect(exported).toEqual([expect.objectContaining({ level: 'error', message: `${marker} happened`, source: 'server' })]);
  await logs.getByRole('button', { name: 'Clear browser logs' }).click();
  const clear = page.getByRole('dialog', { name: "Clear this browser's logs?" });
  await expect(clear).toContainText('This cannot be undone.');
  await clear.getByRole('button', { name: 'Cancel' }).click();
  await expect(clear).toBeHidden();
  await logs.getByRole('button', { name: 'Close' }).click();
  await expect(logs).toBeHidden();
});

test('the admin promotes a freshly signed-up user, and has no role button on their own row', async ({
  page,
  request,
  baseURL,
  signIn,
}) => {
  const { email } = await apiSignUp(request, baseURL!, { name: 'promote' });

  await openAsAdmin(page, signIn, '/en/admin/users');
  await expect(page.getByText('Total users')).toBeVisible();
  await expect(page.getByText('New in the last 30 days')).toBeVisible();
  await page.getByLabel('Search by name or email').fill(email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/admin\/users\?q=/);
  await waitForIslands(page);
  const row = page.getByRole('table', { name: 'All users' }).getByRole('row').filter({ hasText: email });
  await expect(row.getByText('User', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Promote to admin ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote to admin?' });
  await dialog.getByRole('button', { name: 'Promote to admin' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${email} is now an admin.` })).toBeVisible();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Demote to user ${email}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: email }).getByText('Admin', { exact: true })).toBeVisible();

  await page.goto(`/en/admin/users?q=${encodeURIComponent(ADMIN.email)}`);
  const own = page.getByRole('row').filter({ hasText: ADMIN.email });
  await expect(own.getByText('(you)')).toBeVisible();
  await expect(own.getByRole('button')).toHaveCount(0);
});

test('the admin switches the analytics period and downloads its sales as CSV', async ({ page, signIn }) => {
  await openAsAdmin(page, signIn, '/en/admin/analytics');
  await expect(page.getByLabel('Period')).toHaveValue('3months');
  await expect(page.getByRole('img', { name: 'Completed sales per month' })).toBeVisible();
  await page.getByLabel('Period').selectOption('6months');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/\/en\/admin\/analytics\?period=6months$/);
  await expect(page.getByLabel('Period')).toHaveValue('6months');
  // Six months, each with its count above and its name below.
  await expect(page.getByTestId('monthly-sales-chart').locator('text')).toHaveCount(12);
  for (const card of ['Revenue', 'Sales', 'Average order value', 'Buyers'])
    await expect(page.getByText(card, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top courses' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent transactions' })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^sales-6months-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  expect(
    text.startsWith(
      '\uFEFFcompleted_at,order_id,receipt,course,buyer_name,buyer_email,amount,discount,discount_code,currency,status,provider\r\n',
    ),
  ).toBe(true);
});

test('a buyer opening any admin page lands on their dashboard', async ({ page, signIn }) => {
  await signIn(DEMO.buyer);
  for (const path of ['/en/admin', '/en/admin/users', '/en/admin/analytics?period=1year']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/en\/dashboard$/);
  }
});
