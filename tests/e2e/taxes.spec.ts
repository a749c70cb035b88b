import { spawn, type ChildProcess } from 'node:child_process';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../bench/bench-server.ts';
import { startFakeVies, type FakeVies } from '../support/fake-vies.ts';
import { readPdf } from '../support/pdf-reader.ts';
import { currentQuarter } from '../../src/lib/admin/tax-report.schema.ts';
import { DEMO, expect, test, uniqueEmail, waitForIslands, type BrowserContext, type Page } from './fixtures.ts';

/**
 * Taxes at checkout, end to end in Chromium: a shop of its own (its own embedded database with the
 * demo catalogue, since its tax settings would change every other spec's checkout) whose seller is in
 * Türkiye, registered for non-Union OSS, with prices plus tax, and whose VAT number checks go to a
 * local fake of VIES's REST API. The course is the demo's €4.50 "The 30-Minute Weekly Review". The
 * quarter's CSV is read before and after the three sales (the shop's data folder outlives a run). The
 * seller then moves to Germany with a VAT number: its receipts become invoices, and a business whose
 * number VIES did not check at checkout gets its VAT back from Admin → Taxes.
 */
test.describe.configure({ mode: 'serial' });

let vies: FakeVies;
let shop: ChildProcess;
let shopUrl = '';
let courseId = '';
let admin: BrowserContext;
let before: QuarterTotals;

interface QuarterTotals {
  orders: number;
  netMinor: number;
  taxMinor: number;
}

/** The quarter's CSV as Admin → Taxes downloads it, summed over its lines (orders, net and tax, refunds netted). */
async function quarterTotals(): Promise<QuarterTotals> {
  const csv = await admin.request.get(`/api/admin/taxes/export?quarter=${currentQuarter()}`);
  expect(csv.status()).toBe(200);
  const rows = (await csv.text())
    .replace('\uFEFF', '')
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(','));
  const sum = (column: number) => rows.reduce((total, row) => total + Number(row[column]), 0);
  return { orders: sum(5), netMinor: Math.round(sum(6) * 100), taxMinor: Math.round(sum(7) * 100) };
}

/** Admin → Settings → Taxes for a seller in Türkiye registered for non-Union OSS, prices plus tax. */
const TURKISH_SELLER = {
  sellerCountry: 'TR',
  vatNumber: '',
  taxOffice: 'Kadıköy',
  oss: 'non_union',
  underEuThreshold: false,
  registrations: '',
  displayMode: 'exclusive',
  rateOverrides: '',
  ebookCourses: [],
};

async function saveTaxSettings(settings: typeof TURKISH_SELLER) {
  expect((await admin.request.put('/api/admin/tax-settings', { data: settings })).status()).toBe(200);
}

test.beforeAll(async ({ browser }) => {
  vies = await startFakeVies();
  vies.registered.add('FR40303265045');
  const port = await findFreePort();
  shopUrl = `http://localhost:${port}`;
  shop = spawn(process.execPath, ['functions/cli/start.ts', '--no-build'], {
    env: {
      ...process.env,
      ENV_FILE: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_SITE_URL: shopUrl,
      DATA_DIR: '.data/e2e-taxes',
      NODE_ENV: 'development',
      AUTH_RATE_LIMIT: 'off',
      VIES_URL: vies.url,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForOutput(shop, 'Shop ready', 120_000);
  // The seller's tax settings, as Admin → Settings → Taxes saves them.
  admin = await browser.newContext({ baseURL: shopUrl, extraHTTPHeaders: { origin: shopUrl } });
  expect((await admin.request.post('/api/auth/sign-in/email', { data: DEMO.admin })).ok()).toBe(true);
  await saveTaxSettings(TURKISH_SELLER);
  const courses = (await (await admin.request.get('/api/courses?search=Weekly%20Review')).json()) as {
    courses: { id: string }[];
  };
  courseId = courses.courses[0]!.id;
  before = await quarterTotals();
});
test.afterAll(async () => {
  await admin.close();
  await stopChild(shop);
  await vies.stop();
});

async function fillBuyer(page: Page, lang: 'en' | 'tr', email: string) {
  await page.goto(`${shopUrl}/${lang}/checkout/${courseId}`);
  await waitForIslands(page);
  await page.getByRole('textbox', { name: lang === 'en' ? 'Email' : 'E-posta', exact: true }).fill(email);
  await page.getByLabel(lang === 'en' ? 'Full name' : 'Ad soyad').fill('Lena Vogel');
  await page.getByRole('checkbox', { name: lang === 'en' ? 'I agree to the Terms of service.' : /Kullanım Koşulları/ }).check();
  await page.getByRole('checkbox', { name: lang === 'en' ? /I ask for immediate access/ : /hemen erişmek/ }).check();
}

/** The text of the receipt the order's confirmation mail links to (the dev mailbox shows it). */
async function receiptText(page: Page, email: string): Promise<string> {
  const receipt = page.getByRole('link', { name: /\/api\/receipts\// });
  await expect(async () => {
    await page.goto(`${shopUrl}/en/dev/mailbox?to=${encodeURIComponent(email)}`);
    await expect(receipt).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const pdf = await page.request.get((await receipt.getAttribute('href'))!);
  return (await readPdf(await pdf.body())).pages[0]!.text;
}

/** A business buyer's VAT number given on the checkout page, in its language. */
async function fillBusiness(page: Page, lang: 'en' | 'tr', name: string, number: string) {
  await page.getByText(lang === 'en' ? 'I am buying for a business' : 'Bir işletme adına satın alıyorum').click();
  await page.getByLabel(lang === 'en' ? 'Business name' : 'İşletme adı').fill(name);
  const vatNumber = page.getByLabel(lang === 'en' ? 'EU VAT number' : 'AB KDV numarası (VAT)');
  await vatNumber.fill(number);
  await vatNumber.press('Tab');
  return vatNumber;
}

test('a German consumer sees 19 % VAT on top of the €4.50 price and the payment asks for exactly that', async ({ page }) => {
  const email = uniqueEmail('kaeufer');
  await fillBuyer(page, 'en', email);
  // The address gives no country here (a loopback address): the buyer chooses it.
  await page.getByLabel('Country where you live').selectOption({ label: 'Germany' });
  const total = page.getByTestId('checkout-tax-total');
  await expect(total).toHaveText('€5.36');
  await expect(page.getByText('VAT 19 %')).toBeVisible();
  await expect(page.getByText('€0.86')).toBeVisible();
  await expect(page.getByText(/GeoLite2 data created by MaxMind/)).toBeVisible();
  await page.getByRole('button', { name: 'Proceed to payment' }).click();

  await expect(page).toHaveURL(/\/en\/checkout\/demo\/demo_/);
  await page.getByRole('button', { name: 'Pay €5.36' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();

  // The receipt the confirmation mail links to shows the price before tax, the VAT added at 19 % and the total.
  const text = await receiptText(page, email);
  expect(text).toMatch(/Amount before tax\s*€4\.50/);
  expect(text).toMatch(/VAT 19 %\s*€0\.86/);
  expect(text).toMatch(/Total paid \(EUR\)\s*€5\.36/);
});

test('a French business is told a wrong VAT number at its field, then is reverse-charged with a valid one (Turkish page)', async ({
  page,
}) => {
  await fillBuyer(page, 'tr', uniqueEmail('entreprise'));
  await page.getByLabel('Yaşadığınız ülke').selectOption({ label: 'Fransa' });
  await expect(page.getByTestId('checkout-tax-total')).toHaveText('€5,40');
  const vatNumber = await fillBusiness(page, 'tr', 'Atelier SAS', 'FR12345');
  await expect(page.getByText('Bu geçerli bir KDV numarası değil: ülke önekini ve rakamları kontrol edin.')).toBeVisible();
  await vatNumber.fill('FR40303265045');
  await vatNumber.press('Tab');
  await expect(page.getByText(/Sorumlu sıfatıyla beyan \(reverse charge\)/)).toBeVisible();
  await expect(page.getByTestId('checkout-tax-total')).toHaveText('€4,50');
  await page.getByRole('button', { name: 'Ödemeye geç' }).click();

  await expect(page).toHaveURL(/\/tr\/checkout\/demo\/demo_/);
  expect(vies.requests.at(-1)).toEqual({ countryCode: 'FR', vatNumber: '40303265045' });
  await page.getByRole('button', { name: '€4,50 öde' }).click();
  await expect(page.getByRole('heading', { name: 'Ödeme başarılı!' })).toBeVisible();
});

test('a Turkish buyer of a Turkish seller pays KDV included in the €4.50 price (Turkish page)', async ({ page }) => {
  await fillBuyer(page, 'tr', uniqueEmail('alici'));
  await page.getByLabel('Yaşadığınız ülke').selectOption({ label: 'Türkiye' });
  await expect(page.getByText('%20 KDV dahil: €0,75')).toBeVisible();
  await expect(page.getByTestId('checkout-tax-total')).toHaveText('€4,50');
  await page.getByRole('button', { name: 'Ödemeye geç' }).click();
  await page.getByRole('button', { name: '€4,50 öde' }).click();
  await expect(page.getByRole('heading', { name: 'Ödeme başarılı!' })).toBeVisible();
});

test('the quarter’s CSV adds up to the three orders: 19 % on top, reverse charge, KDV included', async () => {
  const after = await quarterTotals();
  expect(after.orders - before.orders).toBe(3);
  expect(after.netMinor - before.netMinor).toBe(450 + 450 + 375);
  expect(after.taxMinor - before.taxMinor).toBe(86 + 0 + 75);
});

test.describe('a seller established in Germany with a VAT number', () => {
  test.beforeAll(async () => {
    await saveTaxSettings({ ...TURKISH_SELLER, sellerCountry: 'DE', vatNumber: 'DE136695976', taxOffice: '', oss: 'union' });
  });
  test.afterAll(async () => {
    await saveTaxSettings(TURKISH_SELLER);
  });

  test('issues a French business an invoice with both VAT numbers and the reverse-charge mention', async ({ page }) => {
    const email = uniqueEmail('atelier');
    await fillBuyer(page, 'en', email);
    await page.getByLabel('Country where you live').selectOption({ label: 'France' });
    await fillBusiness(page, 'en', 'Atelier SAS', 'FR40303265045');
    await expect(page.getByTestId('checkout-tax-total')).toHaveText('€4.50');
    await page.getByRole('button', { name: 'Proceed to payment' }).click();
    await page.getByRole('button', { name: 'Pay €4.50' }).click();
    await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();
    const text = await receiptText(page, email);
    expect(text).toMatch(/^Invoice/);
    expect(text).toContain('VAT number: DE136695976');
    expect(text).toContain('Atelier SAS');
    expect(text).toContain('VAT number: FR40303265045');
    expect(text).toContain('Reverse charge: VAT to be accounted for by the recipient');
  });

  test('gives a Belgian business its VAT back once VIES confirms the number it could not check, without JavaScript (Turkish pages)', async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail('bruxelles');
    await fillBuyer(page, 'tr', email);
    await page.getByLabel('Yaşadığınız ülke').selectOption({ label: 'Belçika' });
    vies.down = true;
    try {
      await fillBusiness(page, 'tr', 'Brussels BV', 'BE0417497106');
      // VIES does not answer: the Belgian VAT is charged (21 % of €4.50 on top).
      await expect(page.getByTestId('checkout-tax-total')).toHaveText('€5,45');
      await page.getByRole('button', { name: 'Ödemeye geç' }).click();
      await page.getByRole('button', { name: '€5,45 öde' }).click();
      await expect(page.getByRole('heading', { name: 'Ödeme başarılı!' })).toBeVisible();
    } finally {
      vies.down = false;
    }
    const charged = await receiptText(page, email);
    expect(charged).toMatch(/^Fatura/);
    expect(charged).toContain('KDV numarası (VAT): DE136695976');
    expect(charged).toContain('KDV numarası (VAT): BE0417497106');
    expect(charged).not.toContain('Sorumlu sıfatıyla beyan');
    const receipt = charged.match(/R-\d{6}/)![0];

    vies.registered.add('BE0417497106');
    const noScript = await browser.newContext({ baseURL: shopUrl, javaScriptEnabled: false });
    try {
      expect(
        (await noScript.request.post('/api/auth/sign-in/email', { data: DEMO.admin, headers: { origin: shopUrl } })).ok(),
      ).toBe(true);
      const taxes = await noScript.newPage();
      await taxes.goto('/tr/admin/taxes');
      await taxes.getByRole('button', { name: `Yeniden sorgula: ${receipt}` }).click();
      await expect(taxes.getByText('VIES numaranın geçerli olduğunu söylüyor')).toBeVisible();
      await taxes.getByRole('button', { name: `${receipt} için KDV'yi iade et: €0,95` }).click();
      await expect(taxes.getByText('KDV, siparişin ödeme kuruluşu üzerinden iade edildi')).toBeVisible();
      await expect(taxes.getByText(/tarihinde iade edilen KDV: €0,95 \(iade belgesi CN-\d{6}\)/)).toBeVisible();
      await expect(taxes.getByRole('button', { name: `${receipt} için KDV'yi iade et: €0,95` })).toHaveCount(0);
    } finally {
      await noScript.close();
    }
    const credited = await receiptText(page, email);
    expect(credited).toMatch(/^Fatura/);
    expect(credited).toMatch(/İade edilen KDV, [^\n]* \(iade belgesi CN-\d{6}\)\s*-€0,95/);
    expect(credited).toMatch(/KDV iadesinden sonra ödenen\s*€4,50/);
    expect(credited).toContain('Sorumlu sıfatıyla beyan (reverse charge)');
  });
});
