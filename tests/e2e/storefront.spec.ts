import { expect, test, waitForIslands } from './fixtures.ts';

test('a Turkish visitor searches, filters, opens a course and switches to English keeping the filters', async ({ page }) => {
  await page.goto('/tr/courses');
  await waitForIslands(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Tüm kurslar' })).toBeVisible();

  const search = page.getByLabel('Kurslarda ara');
  await search.fill('istanbul');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/tr\/courses\?search=istanbul$/);
  await expect(page.getByRole('status').filter({ hasText: 'kurs bulundu' })).toHaveText('1 kurs bulundu');
  await expect(page.getByRole('article')).toContainText('İş Görüşmesine');

  await search.fill('');
  await page.getByLabel('Seviye').selectOption('beginner');
  await page.getByLabel('Kategori', { exact: true }).selectOption('business');
  await page.getByRole('button', { name: 'Filtreleri uygula' }).click();
  await expect(page).toHaveURL(/category=business&difficulty=beginner/);
  await expect(page.getByRole('button', { name: 'Filtreleri temizle' })).toBeVisible();
  const cards = page.getByRole('article');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('ÜCRETSİZ');
  await expect(cards.first().getByRole('link', { name: /^Ücretsiz al/ })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\?search=istanbul$/);
  await expect(page.getByLabel('Kurslarda ara')).toHaveValue('istanbul');
  await page.goForward();
  await expect(page).toHaveURL(/category=business&difficulty=beginner/);

  await cards.first().getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(/\/tr\/course\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Zarf Yöntemiyle Bütçe');
  await expect(page.getByTestId('course-price')).toHaveText('ÜCRETSİZ');
  await expect(page.getByRole('link', { name: 'Ücretsiz al' })).toHaveAttribute('href', /\/tr\/checkout\/[0-9a-f-]{36}$/);

  await page.goBack();
  await waitForIslands(page);
  await page.getByRole('link', { name: 'Dili English olarak değiştir' }).click();
  await expect(page).toHaveURL(/\/en\/courses\?category=business&difficulty=beginner$/);
  await expect(page.getByRole('heading', { level: 1, name: 'All courses' })).toBeVisible();
  await expect(page.getByLabel('Category', { exact: true })).toHaveValue('business');
  await expect(page.getByLabel('Difficulty')).toHaveValue('beginner');
});

test('the switcher follows filters applied without a page load', async ({ page }) => {
  await page.goto('/en/courses');
  await waitForIslands(page);
  await page.getByLabel('Difficulty').selectOption('advanced');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\?difficulty=advanced$/);
  await page.getByRole('link', { name: 'Switch language to Türkçe' }).click();
  await expect(page).toHaveURL(/\/tr\/courses\?difficulty=advanced$/);
  await expect(page.getByLabel('Seviye')).toHaveValue('advanced');
});

test('the first HTML of the catalogue already holds the filtered results, escaped', async ({ request }) => {
  const html = await (
    await request.get('/en/courses?search=%3Cscript%3Ealert(1)%3C%2Fscript%3E&maxPrice=-3&category=%27%20OR%201%3D1')
  ).text();
  expect(html).toContain('No courses match your filters');
  expect(html).not.toContain('<script>alert(1)</script>');
  const free = await (await request.get('/en/courses?maxPrice=0')).text();
  expect(free).toContain('The 50/30/20 Budget in 20 Minutes');
  expect(free).not.toContain('Answer Any Behavioural Interview Question');
  expect(free).not.toMatch(/courses\/[0-9a-f-]{36}\.pdf|pdf_path|pdfPath/);
});

test('the empty state offers to clear every filter', async ({ page }) => {
  await page.goto('/en/courses?search=zzzz-nothing-matches');
  await waitForIslands(page);
  await expect(page.getByText('No courses match your filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear all filters' }).click();
  await expect(page).toHaveURL(/\/en\/courses$/);
  await expect(page.getByRole('status').filter({ hasText: 'courses found' })).toHaveText('8 courses found');
});

test('an unknown course shows "Course Not Found" with HTTP 404 and a way back', async ({ page }) => {
  for (const path of ['/en/course/00000000-0000-4000-8000-000000000000', '/en/courses/not-a-uuid']) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Course Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to courses' })).toHaveAttribute('href', '/en/courses');
  }
});

test('a cancelled payment returns to the course with a notice, and the wishlist persists', async ({ page }) => {
  await page.goto('/en/courses?maxPrice=5');
  const link = page.getByRole('article').first().getByRole('heading').getByRole('link');
  const href = await link.getAttribute('href');
  const id = href!.split('/').pop()!;
  await page.goto(`/en/courses/${id}?canceled=true`);
  await expect(page.getByRole('status').filter({ hasText: 'Payment cancelled' })).toBeVisible();

  const wishlist = page.getByRole('button', { name: /Add to wishlist/ });
  await wishlist.click();
  await expect(page.getByRole('button', { name: /In your wishlist/ })).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByRole('button', { name: /In your wishlist/ })).toHaveAttribute('aria-pressed', 'true');
});

test('the contact form shows translated errors, keeps the input and stores a valid message', async ({ page }) => {
  await page.goto('/tr/contact');
  await waitForIslands(page);
  await page.getByLabel('Ad', { exact: true }).fill('A');
  await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill('not-an-email');
  await page.getByLabel('Konu').fill('Kısa');
  await page.getByRole('button', { name: 'Mesajı gönder' }).click();
  await expect(page.getByText('Ad en az 2 karakter olmalıdır')).toBeVisible();
  await expect(page.getByText('Geçersiz e-posta adresi')).toBeVisible();
  await expect(page.getByText('Konu en az 5 karakter olmalıdır')).toBeVisible();
  await expect(page.getByText('Mesaj en az 10 karakter olmalıdır')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'E-posta', exact: true })).toHaveValue('not-an-email');

  await page.getByLabel('Ad', { exact: true }).fill('Ayşe Yılmaz');
  await page.getByRole('textbox', { name: 'E-posta', exact: true }).fill('ayse@example.com');
  await page.getByLabel('Konu').fill('İade hakkında');
  await page.getByLabel('Mesaj', { exact: true }).fill('Merhaba, siparişim hakkında bir sorum var.');
  await page.getByRole('button', { name: 'Mesajı gönder' }).click();
  await expect(page.getByRole('status')).toHaveText('Teşekkürler! Mesajınız gönderildi. Bir iş günü içinde yanıt vereceğiz.');
  await expect(page.getByLabel('Ad', { exact: true })).toHaveValue('');
});

test('static pages are served in both languages', async ({ page }) => {
  for (const [path, heading] of [
    ['/en/about', 'About us'],
    ['/tr/about', 'Hakkımızda'],
    ['/en/privacy', 'Privacy policy'],
    ['/tr/terms', 'Kullanım koşulları'],
    ['/en/help', 'Help center'],
    ['/tr/refund', 'İade politikası'],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  await page.goto('/en/privacy');
  await expect(page.getByRole('main')).toContainText('13');
  await page.goto('/en/terms');
  await expect(page.getByRole('main')).toContainText('30');
  await expect(page.getByRole('main')).toContainText('18');
});

test('search engines get a sitemap with alternates, robots.txt and course JSON-LD', async ({ request, page }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('/tr/about</loc>');
  expect(sitemap).toMatch(/\/en\/course\/[0-9a-f-]{36}<\/loc>/);
  expect(sitemap).toContain('hreflang="x-default"');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Sitemap: ');
  expect(robots).toContain('Disallow: /tr/checkout/success');
  expect(robots).not.toMatch(/Disallow: \/(en|tr)\/checkout$/m);
  for (const lang of ['en', 'tr']) {
    await page.goto(`/${lang}/login`);
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/${lang}/login$`));
  }
  await page.goto('/en/reset-password');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await page.goto('/en/courses?maxPrice=0');
  await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(jsonLd).toMatchObject({ '@type': 'Course', offers: { price: '0.00', priceCurrency: 'USD' } });
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/en\/course\//);
  // A shared checkout link sends search engines to the course page.
  const coursePage = new URL(page.url()).pathname;
  await page.goto(coursePage.replace('/course/', '/checkout/'));
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${coursePage}$`));
});

test('a course promises only what exists, and the home page quotes no invented students', async ({ page }) => {
  for (const [lang, title, items, home] of [
    [
      'en',
      'What you get',
      ['Instant download', 'Complete course materials', 'Download it again any time from My Courses'],
      'Verified student',
    ],
    [
      'tr',
      'Neler alacaksınız?',
      ['Anında indirme', 'Eksiksiz kurs materyalleri', 'Kurslarım sayfasından istediğiniz zaman yeniden indirin'],
      'Doğrulanmış öğrenci',
    ],
  ] as const) {
    await page.goto(`/${lang}/courses`);
    await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
    await expect(page.getByRole('list', { name: title }).getByRole('listitem')).toHaveText(items.map((item) => `✓ ${item}`));
    await page.goto(`/${lang}/`);
    await expect(page.getByRole('main')).not.toContainText(home);
  }
});

test("the home page's benefit and category tiles draw their icons as SVG, never emoji (empty boxes without an emoji font)", async ({
  page,
}) => {
  await page.goto('/en/');
  for (const [section, tiles] of [
    ['benefits', 3],
    ['tiles', 8],
  ] as const) {
    const region = page.locator(`section[aria-labelledby="${section}"]`);
    expect(await region.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
    await expect(region.locator('li svg[aria-hidden="true"]')).toHaveCount(tiles);
  }
});

test('a visitor who asks for less motion gets no smooth scrolling or transitions', async ({ page }) => {
  await page.goto('/en/');
  const motion = () =>
    page.evaluate(() => ({
      scroll: getComputedStyle(document.documentElement).scrollBehavior,
      transition: getComputedStyle(document.querySelector('a')!).transitionDuration,
    }));
  expect((await motion()).scroll).toBe('smooth');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await motion()).toEqual({ scroll: 'auto', transition: '1e-05s' });
});
