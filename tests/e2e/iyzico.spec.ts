import { spawn, type ChildProcess } from 'node:child_process';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../bench/bench-server.ts';
import { startFakeIyzico, TEST_CARDS, type FakeIyzico } from '../support/fake-iyzico.ts';
import { axeViolations } from '../support/accessibility.ts';
import { DEMO, expect, test, uniqueEmail, waitForIslands, type Page } from './fixtures.ts';

/**
 * Selling from Türkiye, end to end in Chromium: a shop of its own (its own embedded database, with
 * the demo catalogue) whose payments go to a local fake of iyzico's API and hosted payment page, on
 * which the buyer types iyzico's sandbox test cards.
 */
test.describe.configure({ mode: 'serial' });

let iyzico: FakeIyzico;
let shop: ChildProcess;
let shopUrl = '';
/** The purchase the first test makes, refunded by the third. */
const sale = { email: uniqueEmail('alici'), downloadPath: '', courseId: '' };

test.beforeAll(async () => {
  iyzico = await startFakeIyzico();
  const port = await findFreePort();
  shopUrl = `http://localhost:${port}`;
  shop = spawn(process.execPath, ['functions/cli/start.ts', '--no-build'], {
    env: {
      ...process.env,
      ENV_FILE: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_SITE_URL: shopUrl,
      DATA_DIR: '.data/e2e-iyzico',
      NODE_ENV: 'development',
      AUTH_RATE_LIMIT: 'off',
      ...iyzico.settings,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForOutput(shop, 'Shop ready', 120_000);
});
test.afterAll(async () => {
  await stopChild(shop);
  await iyzico.stop();
});

/** The demo catalogue's ₺149 course, "Telefonla Ürün Fotoğrafı Çekerek Ek Gelir Kazan", at its checkout. */
async function openCheckout(page: Page, lang: 'en' | 'tr', { script = true } = {}) {
  if (!sale.courseId) {
    await page.goto(`${shopUrl}/tr/courses?search=${encodeURIComponent('Ürün Fotoğrafı')}`);
    await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
    sale.courseId = /\/course\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  }
  await page.goto(`${shopUrl}/${lang}/course/${sale.courseId}`);
  await page.getByRole('link', { name: lang === 'tr' ? 'Hemen satın al' : 'Buy now' }).click();
  if (script) await waitForIslands(page);
}

test('a Turkish buyer pays ₺149 in 3 instalments on iyzico (a local fake) and downloads the course', async ({ page }) => {
  await openCheckout(page, 'tr');
  await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill(sale.email);
  await page.getByLabel('Ad soyad').fill('Ayşe Yılmaz');
  const billing = page.getByRole('group', { name: 'Fatura bilgileri' });
  await expect(billing).toContainText('iyzico');
  await billing.getByRole('textbox', { name: 'Ad', exact: true }).fill('Ayşe');
  await billing.getByLabel('Soyad').fill('Yılmaz');
  await billing.getByLabel(/T\.C\. kimlik numarası/).fill('12345678901');
  await billing.getByLabel('Fatura adresi').fill('Moda Cad. 1, Kadıköy');
  await billing.getByLabel('Şehir').fill('İstanbul');
  await billing.getByLabel('Ülke').fill('Türkiye');
  expect(await axeViolations(page, 'checkout with billing details')).toEqual([]);
  await page.getByRole('checkbox', { name: /Kullanım Koşulları'nı/ }).check();
  await page.getByRole('checkbox', { name: /Kursa hemen erişmek istiyorum/ }).check();
  await page.getByRole('button', { name: 'Ödemeye geç' }).click();

  await expect(page).toHaveURL(new RegExp(`^${iyzico.url}/checkout\\?token=`));
  await page.getByLabel('Card number').fill(TEST_CARDS.success);
  await page.getByLabel('Instalments').selectOption('3');
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/tr\/checkout\/success\?session_id=/);
  await expect(page.getByRole('heading', { name: 'Ödeme başarılı!' })).toBeVisible();
  const download = page.getByRole('link', { name: "PDF'yi indir" });
  sale.downloadPath = new URL((await download.getAttribute('href'))!).pathname;
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);

  // Not asked twice in a browser session: the next checkout has them, the identity number excepted.
  await openCheckout(page, 'tr');
  await expect(billing.getByLabel('Soyad')).toHaveValue('Yılmaz');
  await expect(billing.getByLabel('Fatura adresi')).toHaveValue('Moda Cad. 1, Kadıköy');
  await expect(billing.getByLabel(/T\.C\. kimlik numarası/)).toHaveValue('');
});

test('a failed card (3-D Secure) returns to the course with a message in English and no purchase', async ({ page }) => {
  await openCheckout(page, 'en');
  await page.getByLabel('Email').fill(uniqueEmail('declined'));
  await page.getByLabel('Full name').fill('Deniz Kaya');
  await page.getByLabel('First name').fill('Deniz');
  await page.getByLabel('Surname').fill('Kaya');
  await page.getByLabel('Billing address').fill('Alsancak 5');
  await page.getByLabel('City').fill('İzmir');
  await page.getByLabel('Country').fill('Türkiye');
  await page.getByRole('checkbox', { name: 'I agree to the Terms of service.' }).check();
  await page.getByRole('checkbox', { name: /I ask for immediate access/ }).check();
  await page.getByRole('button', { name: 'Proceed to payment' }).click();

  await page.getByLabel('Card number').fill(TEST_CARDS.insufficientFunds);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('alert')).toContainText('Not sufficient funds');
  await page.getByLabel('Card number').fill(TEST_CARDS.threeDSecureFailure);
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/en\/courses\/[0-9a-f-]{36}\?payment_failed=true$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your payment did not go through' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Buy now' })).toBeVisible();
});

test('the admin refunds the sale through iyzico: the buyer’s access ends and a credit note is issued', async ({ browser }) => {
  const admin = await browser.newContext();
  const page = await admin.newPage();
  const signIn = await page.request.post(`${shopUrl}/api/auth/sign-in/email`, { headers: { origin: shopUrl }, data: DEMO.admin });
  expect(signIn.status()).toBe(200);
  await page.goto(`${shopUrl}/en/admin`);
  await waitForIslands(page);
  const row = page.getByRole('table', { name: 'Recent sales' }).getByRole('row').filter({ hasText: sale.email });
  await expect(row).toContainText('149.00');
  await row.getByRole('button', { name: /^Refund/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Refund this sale?' });
  await expect(confirm).toContainText('through iyzico');
  await expect(confirm).toContainText('ends now');
  await confirm.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sale refunded. Access to the course has ended.' })).toBeVisible();
  await expect(row.getByText('Refunded')).toBeVisible();
  await admin.close();

  const buyer = await browser.newContext();
  const link = await buyer.request.get(`${shopUrl}${sale.downloadPath}`, { maxRedirects: 0 });
  expect(link.status()).not.toBe(302);
  const token = sale.downloadPath.split('/').pop()!;
  const creditNote = await buyer.request.get(`${shopUrl}/api/receipts/${token}?document=credit-note`);
  expect(creditNote.status()).toBe(200);
  expect((await creditNote.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await buyer.close();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the checkout form posts itself, billing details included, and iyzico’s page posts the token back', async ({ page }) => {
    await openCheckout(page, 'tr', { script: false });
    await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill(uniqueEmail('betiksiz'));
    await page.getByLabel('Ad soyad').fill('Can Demir');
    // Sent without the identity number: the server sends iyzico the documented placeholder.
    await page.getByRole('checkbox', { name: /Kullanım Koşulları'nı/ }).check();
    await page.getByRole('checkbox', { name: /Kursa hemen erişmek istiyorum/ }).check();
    await page.getByRole('button', { name: 'Ödemeye geç' }).click();
    // The server checks the same schema: the billing details are missing, and it says so in Turkish.
    await expect(page.getByRole('alert')).toHaveText('Lütfen adınızı girin.');
    await expect(page.getByLabel('Ad soyad')).toHaveValue('Can Demir');
    const billing = page.getByRole('group', { name: 'Fatura bilgileri' });
    await billing.getByRole('textbox', { name: 'Ad', exact: true }).fill('Can');
    await billing.getByLabel('Soyad').fill('Demir');
    await billing.getByLabel('Fatura adresi').fill('Kızılay, Atatürk Blv. 10');
    await billing.getByLabel('Şehir').fill('Ankara');
    await billing.getByLabel('Ülke').fill('Türkiye');
    await page.getByRole('checkbox', { name: /Kullanım Koşulları'nı/ }).check();
    await page.getByRole('checkbox', { name: /Kursa hemen erişmek istiyorum/ }).check();
    await page.getByRole('button', { name: 'Ödemeye geç' }).click();

    await expect(page).toHaveURL(new RegExp(`^${iyzico.url}/checkout\\?token=`));
    await page.getByLabel('Card number').fill(TEST_CARDS.success);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/tr\/checkout\/success\?session_id=/);
    await expect(page.getByRole('heading', { name: 'Ödeme başarılı!' })).toBeVisible();
  });
});
