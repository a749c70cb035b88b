import { Secret, TOTP } from 'otpauth';
import { apiSignIn, DEMO, expect, openMail, proveAddress, test, waitForIslands, type Page } from './fixtures.ts';
import { FULL_SWEEP } from '../support/accessibility.ts';
import { authenticatorFor } from '../support/two-factor.ts';
import { axeViolations } from '../support/accessibility.ts';

/** The authenticator app: codes from the key Settings shows, for this 30-second step or the next. */
async function authenticatorFrom(page: Page) {
  const key = (await page.getByTestId('two-factor-key').textContent())!.replace(/\s/g, '');
  const totp = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 });
  return (stepOffset = 0) => totp.generate({ timestamp: Date.now() + stepOffset * 30_000 });
}

test('sessions: another device is listed and signed out from Settings, then all others (English)', async ({
  page,
  newBuyer,
  browser,
  baseURL,
}) => {
  const { email, password } = await newBuyer('sessions');
  const account = { email, password };
  const phone = await browser.newContext({
    baseURL: baseURL!,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  });
  const tablet = await browser.newContext({ baseURL: baseURL! });
  try {
    await apiSignIn(phone.request, baseURL!, account);
    await apiSignIn(tablet.request, baseURL!, account);
    await page.goto('/en/dashboard/settings');
    await waitForIslands(page);
    const list = page.getByRole('region', { name: "Where you're signed in" });
    await expect(list.getByText('This device')).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await list.getByRole('button', { name: 'Sign out Firefox 133 on Linux' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'That device is signed out.' })).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    expect(((await (await phone.request.get('/api/session')).json()) as { user: unknown }).user).toBeNull();

    await list.getByRole('button', { name: 'Sign out all other devices' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your other devices are signed out.' })).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    expect(((await (await tablet.request.get('/api/session')).json()) as { user: unknown }).user).toBeNull();
    await page.reload();
    await expect(page.getByRole('region', { name: "Where you're signed in" }).getByRole('listitem')).toHaveCount(1);

    // The sign-in from a device the account had not used was told by mail, with what to do.
    const mail = await openMail(page, email, 'New sign-in to your MicroCourses account');
    await expect(mail).toContainText('Firefox 133 on Linux');
    await expect(mail).toContainText('If it was not you');
    await expect(mail.getByRole('link', { name: /\/en\/forgot-password$/ })).toBeVisible();
  } finally {
    await phone.close();
    await tablet.close();
  }
});

test('sessions: sign out everywhere (Turkish)', async ({ page, newBuyer }) => {
  await newBuyer('everywhere', 'tr');
  await page.goto('/tr/dashboard/settings');
  await waitForIslands(page);
  const list = page.getByRole('region', { name: 'Oturum açtığınız yerler' });
  await expect(list.getByText('Bu cihaz')).toBeVisible();
  await list.getByRole('button', { name: 'Her yerde oturumu kapat' }).click();
  await expect(page).toHaveURL(/\/tr\/login$/);
  await expect(page.getByRole('status').filter({ hasText: 'Her yerde oturumunuz kapatıldı.' })).toBeVisible();
  await page.goto('/tr/dashboard/settings');
  await expect(page).toHaveURL(/\/tr\/login\?next=/);
});

test('two-factor: a buyer turns it on with the QR code or key, keeps ten backup codes, and signs in with a code (English)', async ({
  page,
  newBuyer,
}) => {
  const account = await newBuyer('totp');
  // Two-factor is for proven addresses (a stranger's authenticator must not survive the owner's claim).
  await proveAddress(page, account.email);
  await page.goto('/en/dashboard/settings');
  await waitForIslands(page);
  const card = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(card.getByText('Two-factor authentication is off.')).toBeVisible();
  await card.getByLabel('Your password').fill('not my password');
  await card.getByRole('button', { name: 'Set up two-factor' }).click();
  await expect(card.getByRole('alert')).toHaveText('Your current password is not correct');
  await card.getByLabel('Your password').fill(account.password);
  await card.getByRole('button', { name: 'Set up two-factor' }).click();
  await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const code = await authenticatorFrom(page);
  await card.getByLabel('6-digit code').fill('12');
  await card.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(card.getByLabel('6-digit code')).toHaveAccessibleDescription(/Enter the 6 digits from your authenticator app\./);
  await card.getByLabel('6-digit code').fill(code());
  await card.getByRole('button', { name: 'Confirm and turn on' }).click();
  const codes = card.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const backupCode = (await codes.first().textContent())!;
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download codes' }).click();
  expect((await download).suggestedFilename()).toBe('backup-codes.txt');
  await card.getByRole('link', { name: 'I have saved my codes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Two-factor authentication turned on.' })).toBeVisible();
  await expect(card.getByText('Two-factor authentication is on.')).toBeVisible();
  await expect(card.getByText('Unused backup codes: 10')).toBeVisible();

  // Signing in again asks for the code after the password; a backup code works too, once.
  await page.context().clearCookies();
  await page.goto('/en/login?next=%2Fen%2Fdashboard%2Fsettings');
  await waitForIslands(page);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/two-factor\?next=%2Fen%2Fdashboard%2Fsettings$/);
  await waitForIslands(page);
  await page.getByRole('link', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(backupCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/en\/dashboard\/settings$/);
  await expect(page.getByText('Unused backup codes: 9')).toBeVisible();

  await page.context().clearCookies();
  await page.goto('/en/login');
  await waitForIslands(page);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/two-factor/);
  await waitForIslands(page);
  await page.getByRole('link', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(backupCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('That backup code is not right or has already been used.');
  await page.getByRole('link', { name: 'Use a code from my authenticator app' }).click();
  await page.getByLabel('6-digit code').fill(code(1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
});

// Turkish two-factor set-up: `npm run test:sweep` (npm test turns it on in English here, and without JavaScript in forms-before-javascript).
if (FULL_SWEEP)
  test('two-factor: turned on and off again in Turkish', async ({ page, newBuyer }) => {
    const account = await newBuyer('totp-tr', 'tr');
    // Two-factor is for proven addresses (a stranger's authenticator must not survive the owner's claim).
    await proveAddress(page, account.email);
    await page.goto('/tr/dashboard/settings');
    await waitForIslands(page);
    const card = page.getByRole('region', { name: 'İki adımlı doğrulama' });
    await card.getByLabel('Şifreniz').fill(account.password);
    await card.getByRole('button', { name: 'İki adımlı doğrulamayı kur' }).click();
    const code = await authenticatorFrom(page);
    await card.getByLabel('6 haneli kod').fill('000000' === code() ? '111111' : '000000');
    await card.getByRole('button', { name: 'Onayla ve aç' }).click();
    await expect(card.getByRole('alert')).toHaveText('Bu kod doğru değil. Uygulamanızı kontrol edip yeniden deneyin.');
    await card.getByLabel('6 haneli kod').fill(code());
    await card.getByRole('button', { name: 'Onayla ve aç' }).click();
    await expect(card.getByRole('list', { name: 'Yedek kodlar' }).getByRole('listitem')).toHaveCount(10);
    await card.getByRole('link', { name: 'Kodlarımı sakladım' }).click();
    await expect(card.getByText('İki adımlı doğrulama açık.')).toBeVisible();

    // The next sign-in asks for the code, in Turkish.
    await page.context().clearCookies();
    await page.goto('/tr/login');
    await waitForIslands(page);
    await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill(account.email);
    await page.getByLabel('Şifre', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect(page).toHaveURL(/\/tr\/two-factor\?next=/);
    await expect(page.getByRole('heading', { name: 'İki adımlı doğrulama' })).toBeVisible();
    await waitForIslands(page);
    await page.getByLabel('6 haneli kod').fill(code(1));
    await page.getByRole('button', { name: 'Doğrula' }).click();
    await expect(page).toHaveURL(/\/tr\/dashboard$/);

    const on = await openMail(page, account.email, 'MicroCourses hesabınızda iki adımlı doğrulama açıldı', 'tr');
    await expect(on).toContainText('Bunu siz açmadıysanız');
    await page.goto('/tr/dashboard/settings');
    await waitForIslands(page);
    await card.getByLabel('Şifreniz').fill(account.password);
    await card.getByRole('button', { name: 'İki adımlı doğrulamayı kapat' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'İki adımlı doğrulama kapatıldı.' })).toBeVisible();
    await expect(card.getByText('İki adımlı doğrulama kapalı.')).toBeVisible();
    const off = await openMail(page, account.email, 'MicroCourses hesabınızda iki adımlı doğrulama kapatıldı', 'tr');
    await expect(off).toContainText('Bunu siz kapatmadıysanız');
  });

test('the demo admin enters the admin area without two-factor while the developer tools are on, and is told so', async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await page.goto('/en/admin');
  await expect(page.getByTestId('two-factor-exempt')).toContainText('admins may enter without two-factor here');
  await page.goto('/tr/admin');
  await expect(page.getByTestId('two-factor-exempt')).toContainText('yöneticiler burada iki adımlı doğrulama olmadan girebilir');
});

for (const lang of ['en', 'tr'] as const) {
  const text = {
    en: {
      linkEmail: 'Address to send the link to',
      linkButton: 'E-mail me a sign-in link',
      subject: /^Your sign-in link for /,
      pending: 'Sign-in not finished',
      enterCode: 'Enter your code',
      menu: 'Account menu',
      code: '6-digit code',
      verify: 'Verify',
      wrong: 'That code is not right. Check your app and try again.',
      orders: 'Orders',
    },
    tr: {
      linkEmail: 'Bağlantının gönderileceği adres',
      linkButton: 'Bana giriş bağlantısı gönder',
      subject: / giriş bağlantınız$/,
      pending: 'Giriş tamamlanmadı',
      enterCode: 'Kodunuzu girin',
      menu: 'Hesap menüsü',
      code: '6 haneli kod',
      verify: 'Doğrula',
      wrong: 'Bu kod doğru değil. Uygulamanızı kontrol edip yeniden deneyin.',
      orders: 'Siparişler',
    },
  }[lang];

  test(`two-factor at every sign-in: a buyer's e-mailed sign-in link asks for the code before My Courses (${lang})`, async ({
    page,
    newBuyer,
    baseURL,
  }) => {
    const account = await newBuyer(`link-2fa-${lang}`, lang);
    // Two-factor is for proven addresses (a stranger's authenticator must not survive the owner's claim).
    await proveAddress(page, account.email);
    // Two-factor turned on through the same calls Settings makes (its screens have their own tests above).
    const enabled = await page.request.post('/api/auth/two-factor/enable', {
      headers: { origin: baseURL! },
      data: { password: account.password },
    });
    const { totpURI } = (await enabled.json()) as { totpURI: string };
    const code = authenticatorFor(totpURI);
    const confirmed = await page.request.post('/api/auth/two-factor/verify-totp', {
      headers: { origin: baseURL! },
      data: { code: code() },
    });
    expect(confirmed.status()).toBe(200);

    await page.context().clearCookies();
    const myCourses = `/${lang}/dashboard/courses`;
    await page.goto(`/${lang}/login?next=${encodeURIComponent(myCourses)}`);
    await waitForIslands(page);
    await page.getByRole('textbox', { name: text.linkEmail, exact: true }).fill(account.email);
    await page.getByRole('button', { name: text.linkButton }).click();
    const mail = await openMail(page, account.email, text.subject, lang);
    const link = await mail.getByRole('link', { name: /magic-link\/verify/ }).getAttribute('href');

    // The link opens a session, but not the account: My Courses sends it to the code first.
    await page.goto(link!);
    await expect(page).toHaveURL(new RegExp(`/${lang}/two-factor\\?next=${encodeURIComponent(myCourses)}$`));
    const header = page.getByRole('banner');
    await expect(header.getByRole('group', { name: text.pending }).getByRole('link', { name: text.enterCode })).toBeVisible();
    await expect(header.getByText(text.menu)).toBeHidden();
    await expect(header.getByText(account.email)).toBeHidden();
    await waitForIslands(page);
    expect(await axeViolations(page, `two-factor page, half signed in (${lang})`)).toEqual([]);
    const used = new Set([code(-1), code(), code(1)]);
    await page.getByLabel(text.code).fill(['000000', '111111', '222222', '333333'].find((wrong) => !used.has(wrong))!);
    await page.getByRole('button', { name: text.verify }).click();
    await expect(page.getByRole('alert')).toHaveText(text.wrong);
    await expect(page).toHaveURL(/\/two-factor\?next=/);

    // Elsewhere the header offers to finish, and comes back to that page; it fits a phone too.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`/${lang}/courses`);
    await expect(header.getByRole('link', { name: text.enterCode })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.setViewportSize({ width: 1280, height: 720 });
    await header.getByRole('link', { name: text.enterCode }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/two-factor\\?next=${encodeURIComponent(`/${lang}/courses`)}$`));
    await page.goto(myCourses);
    await expect(page).toHaveURL(/\/two-factor\?next=/);
    await waitForIslands(page);
    await page.getByLabel(text.code).fill(code(1));
    await page.getByRole('button', { name: text.verify }).click();
    await expect(page).toHaveURL(new RegExp(`${myCourses}$`));
    await expect(page.getByRole('heading', { name: text.orders })).toBeVisible();
    await expect(header.getByText(account.email)).toBeAttached();
    await expect(header.getByRole('link', { name: text.enterCode })).toBeHidden();
  });
}
