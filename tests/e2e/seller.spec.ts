import { DEMO, expect, openMail, test, uniqueEmail, unique, type Page, waitForIslands } from './fixtures.ts';

async function expectPdfDownload(page: Page, trigger: () => Promise<void>, name: RegExp) {
  const [download] = await Promise.all([page.waitForEvent('download'), trigger()]);
  expect(download.suggestedFilename()).toMatch(name);
  const bytes = await (await download.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');
}

test('the seller fills in the shop settings; the contact page shows them at once, and a bad address is refused at its field', async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await page.goto('/tr/admin/settings');
  await waitForIslands(page);
  const phone = `+90 212 ${Math.floor(100 + Math.random() * 899)} 00 00`;
  await page.getByLabel('Destek e-postası').fill('not-an-address');
  await page.getByRole('textbox', { name: 'Telefon', exact: true }).fill(phone);
  await page.getByRole('button', { name: 'Ayarları kaydet' }).click();
  await expect(page.getByText('Geçersiz e-posta adresi')).toBeVisible();
  await expect(page.getByLabel('Destek e-postası')).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Telefon', exact: true })).toHaveValue(phone);
  await page.getByLabel('Destek e-postası').fill('support@microcourses.example');
  await page.getByRole('button', { name: 'Ayarları kaydet' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ayarlar kaydedildi.' })).toBeVisible();

  await page.goto('/en/contact');
  await expect(page.getByRole('link', { name: phone })).toHaveAttribute('href', `tel:${phone.replace(/ /g, '')}`);
  await expect(page.getByText(`© ${new Date().getFullYear()} MicroCourses Demo Ltd.`)).toBeVisible();
});

test('the seller creates a discount code; a Turkish buyer reads the contracts, applies it and pays the discounted price, and gets the receipt', async ({
  page,
  browser,
  baseURL,
  signIn,
}) => {
  const code = `YAZ${unique()
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')}`.slice(0, 20);
  await signIn(DEMO.admin);
  await page.goto('/en/admin/discounts');
  await waitForIslands(page);
  await page.getByRole('button', { name: 'New code' }).click();
  const dialog = page.getByRole('dialog', { name: 'New code' });
  await dialog.getByLabel('Code').fill(code.toLowerCase());
  await dialog.getByLabel('Percent (1–100)').fill('20');
  await dialog.getByLabel('Maximum uses (optional)').fill('5');
  await dialog.getByRole('button', { name: 'Save code' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toContainText('20 %');
  await expect(row).toContainText('0 / 5');

  const buyerContext = await browser.newContext({ baseURL: baseURL! });
  const buyer = await buyerContext.newPage();
  const email = uniqueEmail('ayse');
  await buyer.goto('/tr/courses');
  const card = buyer.getByRole('article').filter({ hasText: '₺' }).first();
  await card.getByRole('heading').getByRole('link').click();
  await buyer.getByRole('link', { name: 'Hemen satın al' }).click();
  await waitForIslands(buyer);
  await buyer.getByRole('textbox', { name: 'E-posta', exact: true }).fill(email);
  await buyer.getByLabel('Ad soyad').fill('Ayşe Yılmaz');

  // The pre-information form is there before payment, with the buyer's own details.
  await buyer.getByText('Ön Bilgilendirme Formu', { exact: true }).click();
  const form = buyer.locator('details', { has: buyer.locator('summary', { hasText: /^Ön Bilgilendirme Formu$/ }) });
  await expect(form.getByText('Ayşe Yılmaz')).toBeVisible();
  await expect(form.getByText(email)).toBeVisible();

  await buyer.getByText('İndirim kodunuz var mı?').click();
  await buyer.getByLabel('İndirim kodu').fill('NOPE-NOPE');
  await buyer.getByRole('button', { name: 'Uygula' }).click();
  await expect(buyer.getByText('Bu kod mevcut değil ya da artık geçerli değil.')).toBeVisible();
  await buyer.getByLabel('İndirim kodu').fill(code.toLowerCase());
  await buyer.getByLabel('İndirim kodu').press('Enter');
  await expect(buyer.getByRole('status').filter({ hasText: `${code} kodu uygulandı` })).toBeVisible();
  const total = (await buyer.getByTestId('checkout-total').textContent())!;

  await buyer.getByRole('checkbox', { name: /Kullanım Koşulları'nı, Ön Bilgilendirme Formu'nu/ }).check();
  await buyer.getByRole('checkbox', { name: /Kursa hemen erişmek istiyorum/ }).check();
  await buyer.getByRole('button', { name: 'Ödemeye geç' }).click();
  await expect(buyer).toHaveURL(/\/tr\/checkout\/demo\/demo_/);
  await buyer.getByRole('button', { name: `${total} öde` }).click();
  await expect(buyer).toHaveURL(/\/tr\/checkout\/success\?session_id=demo_/);

  const mail = await openMail(buyer, email, /^Kursunuz:/, 'tr');
  await expect(mail).toContainText('Ön Bilgilendirme Formu Bu form');
  await expect(mail).toContainText('Mesafeli Satış Sözleşmesi Madde 1. Taraflar');
  await expect(mail).toContainText(`Alıcı: Ayşe Yılmaz, e-posta: ${email}`);
  await expect(mail).toContainText(`İndirim (${code})`);
  await expectPdfDownload(buyer, () => mail.getByRole('link', { name: /\/api\/receipts\// }).click(), /^R-\d{6}\.pdf$/);
  await buyerContext.close();

  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText('1 / 5');
});
