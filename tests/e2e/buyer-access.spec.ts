import { expect, openMail, test, type Page, uniqueEmail, waitForIslands } from './fixtures.ts';

async function expectPdf(page: Page, trigger: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), trigger()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
}

async function enrolAsGuest(page: Page, lang: 'en' | 'tr', email: string) {
  await page.goto(`/${lang}/courses?maxPrice=0`);
  await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
  await page.getByRole('link', { name: lang === 'en' ? 'Get for free' : 'Ücretsiz al' }).click();
  await waitForIslands(page);
  await page.getByRole('textbox', { name: lang === 'en' ? 'Email' : 'E-posta', exact: true }).fill(email);
  await page.getByLabel(lang === 'en' ? 'Full name' : 'Ad soyad').fill('Elif Şahin');
  await page.getByRole('checkbox', { name: /Terms of service|Kullanım Koşulları/ }).check();
  await page.getByRole('button', { name: lang === 'en' ? 'Enrol for free' : 'Ücretsiz kaydol' }).click();
  await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/success\\?session_id=free_`));
}

test('a guest in Turkish downloads on the success page, returns by the mail’s link, sees the order and sets a password', async ({
  page,
}) => {
  const email = uniqueEmail('misafir');
  await enrolAsGuest(page, 'tr', email);
  await expectPdf(page, () => page.getByRole('link', { name: "PDF'yi indir" }).click());

  // Another browser (a shared link to the success page) gets no download.
  const stranger = await page.context().browser()!.newPage();
  await stranger.goto(page.url());
  await expect(stranger.getByRole('heading', { name: 'Kaydınız tamamlandı!' })).toBeVisible();
  await expect(stranger.getByRole('link', { name: "PDF'yi indir" })).toHaveCount(0);
  await stranger.close();

  const mail = await openMail(page, email, /^Kursunuz:/, 'tr');
  await mail.getByRole('link', { name: /magic-link\/verify/ }).click();
  await expect(page).toHaveURL(/\/tr\/dashboard\/courses$/);
  await expect(page.getByRole('heading', { name: 'Siparişler' })).toBeVisible();
  const orders = page.getByRole('table', { name: 'Siparişler' });
  await expect(orders.getByRole('row').filter({ hasText: 'ÜCRETSİZ' }).getByText('Tamamlandı')).toBeVisible();
  await waitForIslands(page);
  await expectPdf(page, () =>
    page
      .getByRole('main')
      .getByRole('link', { name: /^İndir: / })
      .first()
      .click(),
  );
  await expect(page.getByRole('status').filter({ hasText: 'İndirme başladı!' })).toBeVisible();

  await page.goto('/tr/dashboard/settings');
  await waitForIslands(page);
  await expect(page.getByRole('heading', { name: 'Şifre belirle' })).toBeVisible();
  await page.getByLabel('Yeni şifre', { exact: true }).fill('kendi şifrem 1');
  await page.getByLabel('Yeni şifreyi onayla').fill('kendi şifrem 1');
  await page.getByRole('button', { name: 'Şifre belirle' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Şifre belirlendi' })).toBeVisible();
});

test('a returning buyer asks for a sign-in link on the login page and lands where they were going', async ({ page }) => {
  const email = uniqueEmail('returning');
  await enrolAsGuest(page, 'en', email);
  const courseUrl = new URL(page.url());
  await page.context().clearCookies();

  await page.goto(`/en/login?next=${encodeURIComponent('/en/dashboard/courses')}`);
  await waitForIslands(page);
  await page.getByLabel('Address to send the link to').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await expect(page.getByRole('status').filter({ hasText: `If an account exists for ${email}` })).toBeVisible();

  const mail = await openMail(page, email, /sign-in link/);
  const link = await mail.getByRole('link', { name: /magic-link\/verify/ }).getAttribute('href');
  await page.goto(link!);
  await expect(page).toHaveURL(/\/en\/dashboard\/courses$/);
  await expect(page.getByRole('heading', { name: 'Orders' })).toBeVisible();

  // Used once: the same link again lands on the login page, which explains and offers a new one.
  await page.context().clearCookies();
  await page.goto(link!);
  await expect(page).toHaveURL(/\/en\/login\?/);
  await expect(page.getByRole('alert').filter({ hasText: 'That sign-in link has expired or was already used' })).toBeVisible();
  expect(courseUrl.searchParams.get('session_id')).toMatch(/^free_/);
});

test('a course the buyer owns says so on its page, in both languages', async ({ page }) => {
  const email = uniqueEmail('owner');
  await enrolAsGuest(page, 'en', email);
  const mail = await openMail(page, email, /^Your course:/);
  await page.goto((await mail.getByRole('link', { name: /magic-link\/verify/ }).getAttribute('href'))!);
  await expect(page).toHaveURL(/\/en\/dashboard\/courses$/);
  const title = (await page.getByRole('main').getByRole('heading', { level: 2 }).first().textContent())!.trim();

  await page.goto('/en/courses?maxPrice=0');
  await page.getByRole('link', { name: title, exact: true }).first().click();
  await expect(page.getByText('You own this')).toBeVisible();
  await page.goto(page.url().replace('/en/', '/tr/'));
  await expect(page.getByText('Bu kurs sizin')).toBeVisible();
});

test('a broken download link explains itself instead of an error page', async ({ page, expectConsoleErrors }) => {
  expectConsoleErrors(/status of 404/);
  await page.goto('/api/downloads/not-a-real-token');
  await expect(page.getByRole('heading', { name: 'This download link does not work' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get a sign-in link' })).toBeVisible();
});

test('a buyer in Turkish moves to a new address, downloads their data and deletes the account', async ({ page, newBuyer }) => {
  const buyer = await newBuyer('tasinan', 'tr');
  await page.goto('/tr/dashboard/settings');
  await waitForIslands(page);

  const newEmail = uniqueEmail('yeni-adres');
  await page.getByLabel('Yeni e-posta adresi').fill(newEmail);
  await page.getByRole('button', { name: 'E-postayı değiştir' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `${newEmail} adresine bir doğrulama bağlantısı gönderdik` }),
  ).toBeVisible();
  const mail = await openMail(page, newEmail, /e-posta adresinizi doğrulayın$/, 'tr');
  await mail.getByRole('link', { name: /verify-email/ }).click();
  await expect(page).toHaveURL(/\/tr\/dashboard\/settings\?email=changed$/);
  await expect(page.getByText('E-posta adresiniz doğrulandı ve kaydedildi.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'E-posta', exact: true })).toHaveValue(newEmail);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Verilerimi indir' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^microcourses-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(Buffer.concat(await (await download.createReadStream()).toArray()).toString()) as {
    account: { email: string };
  };
  expect(data.account.email).toBe(newEmail);

  await waitForIslands(page);
  const remove = page.getByRole('button', { name: 'Hesabımı sil' });
  await remove.click();
  await expect(page.getByText('Lütfen hesabınızı silmek istediğinizi onaylayın.')).toBeVisible();
  await page.getByLabel('Bunun geri alınamayacağını anlıyorum.').check();
  await page.getByLabel('Onay için şifreniz').fill('yanlış şifre 1');
  await remove.click();
  await expect(page.getByText('Mevcut şifreniz doğru değil').first()).toBeVisible();
  await expect(page.getByLabel('Onay için şifreniz')).toHaveValue('yanlış şifre 1');
  await page.getByLabel('Onay için şifreniz').fill(buyer.password);
  await remove.click();
  await expect(page).toHaveURL(/\/tr\/?$/);
  await expect(page.getByRole('status').filter({ hasText: 'Hesabınız silindi.' })).toBeVisible();
  await page.goto('/tr/dashboard');
  await expect(page).toHaveURL(/\/tr\/login\?next=/);
});
