import { expect, test } from './fixtures.ts';

test('read the featured post in Turkish, switch to its English translation, and share it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/tr/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
  await expect(page.getByRole('article').first().getByText('Öne çıkan')).toBeVisible();
  // The admin tests publish posts on the same database meanwhile: follow the newest shipped article.
  const featured = page.getByRole('article').filter({ hasText: '30 Dakikalık Haftalık Değerlendirme' });
  const title = await featured.getByRole('heading').textContent();
  await featured.getByRole('heading').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title!);
  await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
  await expect(page.getByRole('navigation', { name: 'İçerik yolu' })).toContainText('Ana Sayfa');
  await expect(page.getByRole('complementary').filter({ hasText: 'Özetle' })).toBeVisible();
  const turkishUrl = page.url();

  await page.getByRole('link', { name: 'Read this article in English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page).toHaveURL(/\/en\/blog\/[a-z0-9-]+$/);
  await expect(page.locator('link[rel="alternate"][hreflang="tr"]')).toHaveAttribute('href', turkishUrl);
  await page.getByRole('link', { name: 'Switch language to Türkçe' }).click();
  await expect(page).toHaveURL(turkishUrl);

  await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined }));
  await page.getByRole('button', { name: 'Paylaş' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Bağlantı panoya kopyalandı!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(turkishUrl);

  const cta = page.getByRole('complementary').last().getByRole('link');
  await expect(cta).toHaveAttribute('href', /^\/tr\/course\/[0-9a-f-]{36}$/);
});

test('an unknown post says so with HTTP 404 and a way back', async ({ page }) => {
  const response = await page.goto('/en/blog/no-such-article');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Blog post not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the blog' })).toHaveAttribute('href', '/en/blog');
});

test('each language has an RSS feed linked from its pages', async ({ page, request }) => {
  await page.goto('/tr/blog');
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute('href', '/tr/rss.xml');
  const feed = await (await request.get('/tr/rss.xml')).text();
  expect(feed).toContain('<language>tr</language>');
  // The four shipped Turkish articles (admin tests may add a post of their own meanwhile).
  for (const slug of [
    '30-dakikalik-haftalik-degerlendirme',
    'bes-dakikada-sakinlesin',
    'ilk-aylik-butcenizi-yapin',
    'is-gorusmesinde-star-yontemi',
  ]) {
    expect(feed.match(new RegExp(`<item><title>[^<]+</title><link>[^<]+/tr/blog/${slug}</link>`, 'g')), slug).toHaveLength(1);
  }
});
