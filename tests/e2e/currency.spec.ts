import { DEMO, expect, test, waitForIslands, type Page } from './fixtures.ts';

/**
 * Prices in the shopper's display currency, on the demo catalogue at the built-in reference rates
 * (1 USD = 0.87 EUR = 42.40 TRY; the admin test below saves the same rates, so parallel tests agree).
 * Turkish demo courses: free ×2, $2.99 (≈ ₺127), ₺149, $3.99 (≈ ₺169), $5.99 (≈ ₺254), $7.99 (≈ ₺339).
 * English ones: free ×2, $2.99, $3.99, $4.99, €4.50 (≈ $5.17), $9.00.
 */

const cards = (page: Page) => page.getByRole('article');
const titlesOf = async (page: Page) => (await cards(page).getByRole('heading').allTextContents()).map((title) => title.trim());

test('a Turkish shopper filters in lira and sees the courses that fit, with the currency on every label', async ({ page }) => {
  await page.goto('/tr/courses');
  await waitForIslands(page);
  await expect(page.getByLabel('Para birimi')).toHaveValue('TRY');

  const slider = page.getByLabel('En yüksek fiyat (₺)');
  await expect(slider).toHaveAttribute('max', '20000');
  await expect(slider).toHaveAttribute('step', '50');
  await slider.fill('300');
  await expect(slider).toHaveAttribute('aria-valuetext', "₺300'e kadar");
  await expect(page.getByText("₺300'e kadar")).toBeVisible();
  await page.getByRole('button', { name: 'Filtreleri uygula' }).click();
  await expect(page).toHaveURL(/\/tr\/courses\?maxPrice=300&currency=TRY$/);

  await expect(page.getByRole('status').filter({ hasText: 'kurs bulundu' })).toHaveText('6 kurs bulundu');
  const titles = await titlesOf(page);
  expect(titles.some((title) => title.startsWith('Telefonla Ürün Fotoğrafı'))).toBe(true);
  expect(titles.some((title) => title.startsWith('Excel'))).toBe(true);
  // $7.99 is about ₺339: above the limit.
  expect(titles.some((title) => title.startsWith('İş Görüşmesine Hazırlık'))).toBe(false);

  // Paid in dollars, shown approximately in lira; the lira course needs no "≈".
  const excel = cards(page).filter({ hasText: 'Excel' });
  await expect(excel).toContainText('$5,99');
  await expect(excel).toContainText('≈ ₺254');
  const lira = cards(page).filter({ hasText: 'Telefonla Ürün Fotoğrafı' });
  await expect(lira).toContainText('₺149,00');
  await expect(lira.locator('[data-approx-from]')).toBeHidden();

  // The same link, shared, means the same thing: the server renders it alone.
  const html = await (await page.request.get('/tr/courses?maxPrice=300&currency=TRY')).text();
  expect(html).toContain('Telefonla Ürün Fotoğrafı');
  expect(html).not.toContain('İş Görüşmesine Hazırlık');
});

test('an English shopper filters in dollars, switches to lira, and the choice follows them', async ({ page }) => {
  await page.goto('/en/courses');
  await waitForIslands(page);
  await expect(page.getByLabel('Currency')).toHaveValue('USD');

  const slider = page.getByLabel('Maximum price ($)');
  await expect(slider).toHaveAttribute('max', '500');
  await slider.fill('5');
  await expect(slider).toHaveAttribute('aria-valuetext', 'Up to $5');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\/en\/courses\?maxPrice=5&currency=USD$/);
  await expect(page.getByRole('status').filter({ hasText: 'found' })).toHaveText('5 courses found');
  // €4.50 is about $5.17: above $5.
  expect(await titlesOf(page)).not.toContain('The 30-Minute Weekly Review');

  await slider.fill('6');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/maxPrice=6&currency=USD$/);
  const euro = cards(page).filter({ hasText: 'The 30-Minute Weekly Review' });
  await expect(euro).toContainText('€4.50');
  await expect(euro).toContainText('≈ $5.17');

  // Lira: the limit is carried over ($6 ≈ ₺254, up to the slider's ₺50 step) and every label says ₺.
  await page.getByLabel('Currency').selectOption('TRY');
  await expect(page).toHaveURL(/maxPrice=300&currency=TRY$/);
  await expect(page.getByLabel('Maximum price (₺)')).toHaveAttribute('aria-valuetext', 'Up to ₺300');
  await expect(euro).toContainText('≈ ₺219');

  // Sorted by price across currencies: the euro course sits between $4.99 and $9.
  await page.getByLabel('Sort by').selectOption('price-desc');
  await expect(page).toHaveURL(/sort=price-desc/);
  await expect(cards(page).first()).toContainText('The 30-Minute Weekly Review');
  // Clearing the filters keeps how the list is read: the currency and the order.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/en\/courses\?currency=TRY&sort=price-desc$/);
  await expect(page.getByLabel('Maximum price (₺)')).toHaveAttribute('aria-valuetext', 'Any price');

  // The choice is remembered in this browser: a plain link opens in lira, cached pages show "≈ ₺".
  await page.goto('/en/courses');
  await waitForIslands(page);
  await expect(page).toHaveURL(/\/en\/courses\?currency=TRY$/);
  await expect(page.getByLabel('Currency')).toHaveValue('TRY');
  await expect(cards(page).filter({ hasText: 'Value-Based Pricing' })).toContainText('≈ ₺382');
  await cards(page).filter({ hasText: 'Value-Based Pricing' }).getByRole('heading').getByRole('link').click();
  await expect(page.getByTestId('course-price')).toHaveText('$9.00');
  await expect(page.getByTestId('course-approx-price')).toHaveText('₺382');
  await expect(page.getByTestId('course-approx-price')).toBeVisible();

  // An old link's limit keeps its meaning (dollars on English pages), whatever was remembered.
  await page.goto('/en/courses?maxPrice=5');
  await waitForIslands(page);
  await expect(page.getByLabel('Currency')).toHaveValue('USD');
  await expect(page.getByLabel('Maximum price ($)')).toHaveAttribute('aria-valuetext', 'Up to $5');
  await expect(page.getByRole('status').filter({ hasText: 'found' })).toHaveText('5 courses found');
});

test('the admin sets reference rates: a wrong rate is refused at its field, the saved ones are dated today', async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  await page.goto('/tr/admin/settings');
  await waitForIslands(page);
  const form = page.locator('form').filter({ has: page.getByLabel('Temel para birimi') });
  await form.getByLabel('1 USD karşılığı TRY').fill('-4');
  await form.getByRole('button', { name: 'Fiyat ve para birimi ayarlarını kaydet' }).click();
  await expect(form.getByText("0'dan büyük, en fazla 6 ondalık basamaklı bir kur girin (en fazla 1.000.000).")).toBeVisible();
  await expect(form.getByLabel('1 USD karşılığı TRY')).toHaveValue('-4');

  // The same rates as the built-in ones (other tests count on them), now the seller's own.
  await form.getByLabel('1 USD karşılığı TRY').fill('42.4');
  await form.getByLabel('1 USD karşılığı EUR').fill('0.87');
  const today = await page.evaluate(() => {
    const now = new Date();
    return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  });
  await expect(form.getByLabel('Kurların tarihi')).toHaveValue(today);
  await form.getByRole('button', { name: 'Fiyat ve para birimi ayarlarını kaydet' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Fiyat ve para birimi ayarları kaydedildi.' })).toBeVisible();

  await page.goto('/tr/admin');
  await expect(page.getByRole('link', { name: 'Döviz kurlarını güncelle' })).toHaveCount(0);
  await page.goto('/tr/');
  await expect(page.getByText("Ücretsiz ya da ₺400'e kadar; her biri tek oturuşta biter.")).toBeVisible();
});
