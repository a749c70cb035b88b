import { expect, openMail, test, type Page, waitForIslands, uniqueEmail } from './fixtures.ts';

async function openCourse(page: Page, lang: 'en' | 'tr', query: string) {
  await page.goto(`/${lang}/courses?${query}`);
  await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/${lang}/course/[0-9a-f-]{36}`));
}

async function expectPdf(page: Page, trigger: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), trigger()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await (await download.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');
}

test('a guest enrols in a free course in Turkish, gets the e-mail, and its link downloads the PDF', async ({ page }) => {
  const email = uniqueEmail('misafir');
  await openCourse(page, 'tr', 'maxPrice=0');
  await page.getByRole('link', { name: 'Ücretsiz al' }).click();
  await expect(page).toHaveURL(/\/tr\/checkout\/[0-9a-f-]{36}$/);
  await waitForIslands(page);
  await expect(page.getByTestId('checkout-price')).toHaveText('ÜCRETSİZ');
  const submit = page.getByRole('button', { name: 'Ücretsiz kaydol' });
  await expect(submit).toBeDisabled();
  await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill(email);
  await page.getByLabel('Ad soyad').fill('Elif Şahin');
  // A free enrolment asks only for the Terms, nothing about withdrawal; the news box is left unticked.
  await expect(page.getByRole('checkbox')).toHaveCount(2);
  await expect(page.getByRole('checkbox', { name: /^Bana haber gönderin/ })).not.toBeChecked();
  await submit.click();
  await expect(page.getByText("Devam etmek için Kullanım Koşulları'nı kabul edin.")).toBeVisible();
  await page.getByRole('checkbox', { name: "Kullanım Koşulları'nı okudum ve kabul ediyorum." }).check();
  await submit.click();

  await expect(page).toHaveURL(/\/tr\/checkout\/success\?session_id=free_/);
  await expect(page.getByRole('heading', { name: 'Kaydınız tamamlandı!' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByText('Ücretsiz kurs')).toBeVisible();

  const mail = await openMail(page, email, /^Kursunuz:/, 'tr');
  const link = mail.getByRole('link', { name: /\/api\/downloads\// });
  await expectPdf(page, () => link.click());
});

test('a signed-in buyer pays through the demo provider, then downloads from My Courses', async ({ page }) => {
  const email = uniqueEmail('buyer');
  await page.goto('/en/signup');
  await waitForIslands(page);
  await page.getByLabel('Full name').fill('Sam Buyer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('buyer password 1');
  await page.getByLabel('Confirm password').fill('buyer password 1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);

  await openCourse(page, 'en', 'search=STAR');
  await page.getByRole('link', { name: 'Buy now' }).click();
  await waitForIslands(page);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Full name')).toHaveValue('Sam Buyer');
  // Both boxes are required, and each says so at its place.
  await page.getByRole('button', { name: 'Proceed to payment' }).click();
  await expect(page.getByText('Please agree to the Terms of service to continue.')).toBeVisible();
  await expect(page.getByText('Please confirm that you want immediate access to continue.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'I agree to the Terms of service.' })).toBeFocused();
  await page.getByRole('checkbox', { name: 'I agree to the Terms of service.' }).check();
  await page.getByRole('checkbox', { name: /I ask for immediate access/ }).check();
  await page.getByRole('button', { name: 'Proceed to payment' }).click();

  await expect(page).toHaveURL(/\/en\/checkout\/demo\/demo_/);
  await expect(page.getByText('DEMO — no real payment is taken')).toBeVisible();
  await page.getByRole('button', { name: 'Pay $4.99' }).click();
  await expect(page).toHaveURL(/\/en\/checkout\/success\?session_id=demo_/);
  await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();

  await page.getByRole('link', { name: 'Go to My Courses' }).click();
  await expect(page).toHaveURL(/\/en\/dashboard\/courses$/);
  const item = page.getByRole('listitem').filter({ hasText: 'STAR' });
  await expect(item.getByText('Not downloaded yet')).toBeVisible();
  await expect(item.getByText('$4.99')).toBeVisible();
  await expectPdf(page, () => item.getByRole('link', { name: /^Download/ }).click());
  await page.reload();
  await expect(page.getByRole('listitem').filter({ hasText: 'STAR' }).getByText('Downloaded 1 time')).toBeVisible();
  // The order history holds the numbered receipt.
  const order = page.getByRole('row').filter({ hasText: 'STAR' });
  await expectPdf(page, () => order.getByRole('link', { name: /^Receipt \(PDF\) R-\d{6}$/ }).click());

  await page.goto('/en/dashboard?success=true&demo=true');
  await expect(page.getByRole('status').filter({ hasText: 'Purchase completed successfully!' })).toBeVisible();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
});

test('cancelling the payment returns to the course with the cancelled notice', async ({ page }) => {
  await openCourse(page, 'en', 'search=password');
  await page.getByRole('link', { name: 'Buy now' }).click();
  await waitForIslands(page);
  await page.getByLabel('Email').fill(uniqueEmail('canceller'));
  await page.getByLabel('Full name').fill('Casey Cancel');
  await page.getByRole('checkbox', { name: 'I agree to the Terms of service.' }).check();
  await page.getByRole('checkbox', { name: /I ask for immediate access/ }).check();
  await page.getByRole('button', { name: 'Proceed to payment' }).click();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/en\/courses\/[0-9a-f-]{36}\?canceled=true$/);
  await expect(page.getByRole('status').filter({ hasText: 'Payment cancelled' })).toBeVisible();
});
