import { expect, test } from './fixtures.ts';

test.describe('language rule', () => {
  test('an unprefixed path redirects with HTTP to the browser language, keeping the query', async ({ request }) => {
    const english = await request.get('/courses?category=design&search=a%20b', { maxRedirects: 0 });
    expect(english.status()).toBe(302);
    expect(english.headers()['location']).toBe('/en/courses?category=design&search=a%20b');

    const turkish = await request.get('/courses?category=design', {
      maxRedirects: 0,
      headers: { 'Accept-Language': 'tr-TR,tr;q=0.9,en;q=0.5' },
    });
    expect(turkish.status()).toBe(302);
    expect(turkish.headers()['location']).toBe('/tr/courses?category=design');

    const root = await request.get('/', { maxRedirects: 0, headers: { 'Accept-Language': 'tr' } });
    expect(root.headers()['location']).toBe('/tr/');
  });

  test('the last chosen language wins over the browser language', async ({ page }) => {
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en-US,en;q=0.9' });
    await page.goto('/tr/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
    await page.goto('/about-us-unprefixed');
    await expect(page).toHaveURL(/\/tr\/about-us-unprefixed$/);
  });

  test('the EN/TR switcher keeps the path and the query string', async ({ page }) => {
    await page.goto('/en/?utm_source=test&x=1');
    await page.getByRole('link', { name: 'Switch language to Türkçe' }).click();
    await expect(page).toHaveURL(/\/tr\/\?utm_source=test&x=1$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
    await page.getByRole('link', { name: 'Dili English olarak değiştir' }).click();
    await expect(page).toHaveURL(/\/en\/\?utm_source=test&x=1$/);
  });

  test('pages declare their language and every alternate', async ({ page }) => {
    await page.goto('/tr/');
    await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', /\/en\/$/);
    await expect(page.locator('link[rel="alternate"][hreflang="tr"]')).toHaveAttribute('href', /\/tr\/$/);
    await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', /\/en\/$/);
  });
});

test.describe('home', () => {
  for (const [lang, heading, nav] of [
    ['en', 'Learn one practical skill in under 30 minutes', 'Courses'],
    ['tr', '30 dakikadan kısa sürede pratik bir beceri öğrenin', 'Kurslar'],
  ] as const) {
    test(`is served in ${lang}`, async ({ page }) => {
      const response = await page.goto(`/${lang}/`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('navigation').first().getByRole('link', { name: nav, exact: true })).toBeVisible();
    });
  }
});

test.describe('not found and crash screens', () => {
  test('an unknown path shows the not-found screen with HTTP 404 in English', async ({ page }) => {
    const response = await page.goto('/en/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText("Sorry, the page you're looking for doesn't exist or has been moved.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse courses' })).toHaveAttribute('href', '/en/courses');
  });

  test('an unknown path shows the not-found screen with HTTP 404 in Turkish', async ({ page }) => {
    const response = await page.goto('/tr/boyle-bir-sayfa-yok');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Sayfa Bulunamadı' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
  });

  test('a server error shows the crash screen with HTTP 500 and an error id', async ({ page }) => {
    const response = await page.goto('/en/dev/crash');
    expect(response?.status()).toBe(500);
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(page.getByTestId('error-id')).toHaveText(/^[0-9A-F]{12}$/);
    await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('button', { name: 'Report Bug' })).toBeVisible();
  });

  test('malformed and hostile URLs never produce a 500', async ({ request }) => {
    for (const path of [
      '/en/%E0%A4%A',
      '/%',
      `/en/${'x'.repeat(8000)}`,
      '/en/courses?search=%27%3B--&maxPrice=-1',
      '/en/..%2f..%2fetc%2fpasswd',
      '/%00',
    ]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBeLessThan(500);
    }
  });
});

test('health reports the database', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok', database: 'up' });
});
