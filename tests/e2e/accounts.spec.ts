import { DEMO, expect, openMail, test, type Page, waitForIslands, uniqueEmail } from './fixtures.ts';

async function signUpInTurkish(page: Page, email: string, password = 'güçlü şifre 2026') {
  await page.goto('/tr/signup');
  await waitForIslands(page);
  await page.getByLabel('Ad soyad').fill('Ayşe Yılmaz');
  await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill(email);
  await page.getByLabel('Şifre', { exact: true }).fill(password);
  await page.getByLabel('Şifreyi onayla').fill(password);
  await page.getByRole('button', { name: 'Hesap oluştur' }).click();
  await expect(page).toHaveURL(/\/tr\/dashboard$/);
}

test('sign up in Turkish, land on the dashboard, log out, fail and succeed to log in', async ({ page }) => {
  const email = uniqueEmail('ayse');
  await page.goto('/tr/signup');
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Hesap oluştur' }).click();
  await expect(page.getByText('Ad soyad en az 2 karakter olmalıdır')).toBeVisible();
  await expect(page.getByText('Geçersiz e-posta adresi')).toBeVisible();
  await expect(page.getByText('Şifre en az 8 karakter olmalıdır')).toBeVisible();

  await signUpInTurkish(page, email);
  await expect(page.getByTestId('dashboard-greeting')).toHaveText('Merhaba, Ayşe Yılmaz!');
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Hesap başarıyla oluşturuldu! Hesabınızı doğrulamak için e-postanızı kontrol edin.' }),
  ).toBeVisible();
  await expect(page.getByText('Henüz bir kursunuz yok.')).toBeVisible();

  const menu = page.getByRole('group').or(page.locator('details[data-signed-in]'));
  // The menu shows the address, and its accessible name says what it is and holds that address.
  const accountMenu = page.locator('summary', { hasText: email });
  await expect(accountMenu).toHaveAccessibleName(`Hesap menüsü: ${email}`);
  await accountMenu.click();
  await expect(menu.getByRole('link', { name: 'Panel' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Yönetim' })).toBeHidden();
  await page.getByRole('button', { name: 'Çıkış yap' }).click();
  await expect(page).toHaveURL(/\/tr\/$/);
  await expect(page.getByRole('link', { name: 'Giriş Yap' }).first()).toBeVisible();

  await page.goto('/tr/dashboard');
  await expect(page).toHaveURL(/\/tr\/login\?next=%2Ftr%2Fdashboard$/);
  await waitForIslands(page);
  await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill(email);
  await page.getByLabel('Şifre', { exact: true }).fill('yanlış şifre 123');
  await page.getByRole('button', { name: 'Giriş yap' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'E-posta ya da şifre hatalı' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'E-posta', exact: true })).toHaveValue(email);

  await page.getByLabel('Şifre', { exact: true }).fill('güçlü şifre 2026');
  await page.getByRole('button', { name: 'Şifreyi göster' }).click();
  await expect(page.getByLabel('Şifre', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Giriş yap' }).click();
  await expect(page).toHaveURL(/\/tr\/dashboard$/);
  await expect(page.getByRole('status').filter({ hasText: 'Tekrar hoş geldiniz!' })).toBeVisible();
});

test('forgot password: read the mail, reset, and arrive signed in', async ({ page }) => {
  const email = uniqueEmail('forgot');
  await signUpInTurkish(page, email);
  await page.context().clearCookies();

  await page.goto('/en/forgot-password');
  await waitForIslands(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  const mail = await openMail(page, email, 'MicroCourses şifrenizi sıfırlayın');
  await mail.getByRole('link', { name: /reset-password\?token=/ }).click();
  await expect(page).toHaveURL(/\/tr\/reset-password\?token=/);
  await waitForIslands(page);
  await page.getByLabel('Yeni şifre', { exact: true }).fill('yepyeni şifre 42');
  await page.getByLabel('Yeni şifreyi onayla').fill('farklı şifre 42');
  await page.getByRole('button', { name: 'Şifreyi güncelle' }).click();
  await expect(page.getByText('Şifreler eşleşmiyor')).toBeVisible();
  await page.getByLabel('Yeni şifreyi onayla').fill('yepyeni şifre 42');
  await page.getByRole('button', { name: 'Şifreyi güncelle' }).click();
  await expect(page).toHaveURL(/\/tr\/dashboard$/);
  await expect(page.getByRole('status').filter({ hasText: 'Şifreniz başarıyla güncellendi!' })).toBeVisible();

  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Geçersiz Sıfırlama Bağlantısı' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Yeni bağlantı iste' })).toHaveAttribute('href', '/tr/forgot-password');
});

test('signing up with an address that has an account says to check the mail, as for a new one, and signs nobody in', async ({
  page,
}) => {
  await page.goto('/en/signup');
  await waitForIslands(page);
  await page.getByLabel('Full name').fill('Someone Else');
  await page.getByLabel('Email').fill(DEMO.buyer.email);
  await page.getByLabel('Password', { exact: true }).fill('not their password 1');
  await page.getByLabel('Confirm password').fill('not their password 1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status').filter({ hasText: `We have sent a message to ${DEMO.buyer.email}.` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page).toHaveURL(/\/en\/signup$/);
  await page.goto('/en/dashboard');
  await expect(page).toHaveURL(/\/en\/login\?next=/);
});

test('a sign-in whose next hides another site behind a tab or a line feed ends on the shop', async ({ page, baseURL }) => {
  for (const hidden of ['%09', '%0A%5C']) {
    await page.context().clearCookies();
    await page.goto(`/en/login?next=%2F${hidden}%2Fevil.example%2Fsteal`);
    await waitForIslands(page);
    await page.getByLabel('Email').fill(DEMO.buyer.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.buyer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    expect(new URL(page.url()).origin, hidden).toBe(baseURL);
    await expect(page, hidden).toHaveURL(/\/(en|tr)\/dashboard$/);
  }
});

test('an unprefixed reset link keeps its token through the language redirect', async ({ request }) => {
  const response = await request.get('/reset-password?token=abc123', { maxRedirects: 0, headers: { 'Accept-Language': 'tr' } });
  expect(response.headers()['location']).toBe('/tr/reset-password?token=abc123');
});

test('a buyer opening the admin area lands on the dashboard; settings change the language', async ({ page }) => {
  await signUpInTurkish(page, uniqueEmail('buyer'));
  await page.goto('/en/admin');
  await expect(page).toHaveURL(/\/en\/dashboard$/);
  await page.goto('/%61dmin');
  await expect(page).toHaveURL(/\/(en|tr)\/dashboard$/);

  await page.goto('/tr/dashboard/settings');
  await waitForIslands(page);
  await expect(page.getByRole('textbox', { name: 'E-posta', exact: true })).toHaveAttribute('readonly', '');
  await page.getByLabel('Ad soyad').fill('Ayşe Işık');
  await page.getByLabel('Dil', { exact: true }).selectOption('en');
  await page.getByRole('button', { name: 'Profili kaydet' }).click();
  await expect(page).toHaveURL(/\/en\/dashboard\/settings$/);
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();
  await expect(page.getByTestId('dashboard-greeting')).toHaveText('Hello, Ayşe Işık!');

  await waitForIslands(page);
  await page.getByLabel('Current password').fill('wrong wrong 1');
  await page.getByLabel('New password', { exact: true }).fill('another strong 1');
  await page.getByLabel('Confirm new password').fill('another strong 1');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Your current password is not correct').first()).toBeVisible();
});

test.describe('a form sent before its script has loaded', () => {
  // The browser sends the form itself, as it does when Enter is pressed while a slow phone hydrates.
  test.use({ javaScriptEnabled: false });

  /** Types into the page's form, presses Enter in the last field, and returns what the browser sent and its answer. */
  async function sendByBrowser(page: Page, fields: [label: string, value: string][]) {
    for (const [label, value] of fields) await page.getByLabel(label).first().fill(value);
    const [request] = await Promise.all([
      page.waitForRequest((sent) => sent.isNavigationRequest() && sent.frame() === page.mainFrame()),
      page.getByLabel(fields.at(-1)![0]).first().press('Enter'),
    ]);
    const response = await request.response();
    return { request, status: response?.status() };
  }

  test('is posted, so nothing typed (a password least of all) lands in the address or the page that comes back', async ({
    page,
    signIn,
  }) => {
    const secret = 'gizli şifre 2026';
    const forms: { path: string; heading: string; fields: [string, string][] }[] = [
      {
        path: '/en/login',
        heading: 'Welcome back',
        fields: [
          ['Email', 'someone@example.com'],
          ['Password', secret],
        ],
      },
      {
        path: '/tr/signup',
        heading: 'Hesabınızı oluşturun',
        fields: [
          ['Ad soyad', 'Ayşe Yılmaz'],
          ['E-posta', 'ayse@example.com'],
          ['Şifre', secret],
          ['Şifreyi onayla', `${secret}!`],
        ],
      },
    ];
    for (const form of forms) {
      await page.goto(form.path);
      const sent = await sendByBrowser(page, form.fields);
      expect(sent.request.method(), form.path).toBe('POST');
      // The page takes the form (decision 34): here it refuses it (a wrong password, a taken address).
      expect(sent.status, form.path).toBeLessThan(500);
      expect(page.url(), form.path).not.toContain('?');
      await expect(page.getByRole('heading', { level: 1 }), form.path).toContainText(form.heading);
      expect(await page.content(), form.path).not.toContain(secret);
    }

    await signIn(DEMO.buyer);
    await page.goto('/en/dashboard/settings');
    const sent = await sendByBrowser(page, [['Current password', secret]]);
    expect(sent.request.method()).toBe('POST');
    // Refused (no new password): Settings again, the password not in it.
    expect(sent.status).toBe(400);
    expect(page.url()).toMatch(/\/en\/dashboard\/settings$/);
    expect(await page.content()).not.toContain(secret);
  });
});
