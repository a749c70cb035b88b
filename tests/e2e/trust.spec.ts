import { DEMO, expect, test, unique, waitForIslands, type Page } from './fixtures.ts';

/** The first free course of a language, opened from the catalogue; its id from the address. */
async function openFreeCourse(page: Page, lang: 'en' | 'tr', index = 0): Promise<string> {
  await page.goto(`/${lang}/courses?maxPrice=0`);
  await page.getByRole('article').nth(index).getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/${lang}/course/[0-9a-f-]{36}`));
  return page.url().split('/').pop()!.split('?')[0]!;
}

test('a buyer reviews a course from its page; the admin replies and hides it; the buyer edits and deletes it from My Courses in Turkish', async ({
  page,
  browser,
  baseURL,
  api,
  newBuyer,
}) => {
  const buyer = await newBuyer('reviewer', 'en');
  const courseId = await openFreeCourse(page, 'en');
  // Not a buyer yet: no form.
  await expect(page.getByRole('heading', { name: /Rate this course/ })).toBeHidden();
  const enrol = await api.post('/api/checkout', {
    courseId,
    email: buyer.email,
    fullName: buyer.fullName,
    language: 'en',
    acceptTerms: true,
  });
  expect(enrol.status()).toBe(200);

  await page.reload();
  const form = page.getByRole('form', { name: /Rate this course/ });
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: 'Save review' }).click();
  await expect(form.getByText('Choose a rating from 1 to 5 stars.')).toBeVisible();
  const text = `Clear and practical ${unique()}`;
  await form.getByRole('radio', { name: '4 stars' }).check();
  await form.getByLabel('Your review (optional)').fill(text);
  await form.getByRole('button', { name: 'Save review' }).click();
  await expect(form.getByRole('status')).toHaveText('Thank you! Your review is saved.');
  await expect(form.getByRole('button', { name: 'Delete review' })).toBeVisible();

  const review = page.getByRole('article', { name: 'Review by Test B.' }).filter({ hasText: text });
  await expect(async () => {
    await page.reload();
    await expect(review).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(review.getByText('Bought this course')).toBeVisible();
  // The form remembers the review after a reload.
  await expect(form.getByRole('radio', { name: '4 stars' })).toBeChecked();
  await expect(form.getByLabel('Your review (optional)')).toHaveValue(text);

  const adminContext = await browser.newContext({ baseURL: baseURL! });
  const admin = await adminContext.newPage();
  await admin.request.post('/api/auth/sign-in/email', { headers: { origin: baseURL! }, data: DEMO.admin });
  await admin.goto('/en/admin/reviews');
  await waitForIslands(admin);
  await admin.getByLabel('Search reviews').fill(text);
  const row = admin.getByRole('row').filter({ hasText: text });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(buyer.email);
  await row.getByRole('button', { name: /Reply/ }).click();
  const dialog = admin.getByRole('dialog', { name: 'Reply to a review' });
  await dialog.getByLabel('Your reply').fill('Thank you for the kind words!');
  await dialog.getByRole('button', { name: 'Save reply' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Thank you for the kind words!');

  await expect(async () => {
    await page.reload();
    await expect(review.getByText('Thank you for the kind words!')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });

  await row.getByRole('switch', { name: /Show the review by Test Buyer on the course page/ }).click();
  await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'false');
  await expect(async () => {
    await page.reload();
    await expect(review).toBeHidden({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await adminContext.close();

  await page.goto('/tr/dashboard/courses');
  const details = page
    .locator('details')
    .filter({ has: page.getByText('Değerlendirmeniz') })
    .first();
  await details.locator('summary').click();
  const turkishForm = details.getByRole('form', { name: /Değerlendirmeniz/ });
  await expect(turkishForm.getByText('Mağaza bu değerlendirmeyi kurs sayfasında gizledi.', { exact: false })).toBeVisible();
  await expect(turkishForm.getByRole('radio', { name: '4 yıldız' })).toBeChecked();
  await turkishForm.getByRole('radio', { name: '5 yıldız' }).check();
  await turkishForm.getByRole('button', { name: 'Değerlendirmeyi kaydet' }).click();
  await expect(turkishForm.getByRole('status')).toHaveText('Teşekkürler! Değerlendirmeniz kaydedildi.');
  await turkishForm.getByRole('button', { name: 'Değerlendirmeyi sil' }).click();
  await expect(turkishForm.getByRole('status')).toHaveText('Değerlendirmeniz silindi.');
  await expect(turkishForm.getByRole('radio', { name: '5 yıldız' })).not.toBeChecked();
});

test('a guest saves courses to the wishlist, signs in and finds them in the account; a Turkish buyer sees them on the dashboard and removes one', async ({
  page,
  newBuyer,
  signIn,
  browser,
  baseURL,
}) => {
  const buyer = await newBuyer('wisher', 'tr');
  await page.context().clearCookies();

  const first = await openFreeCourse(page, 'tr', 0);
  const firstTitle = await page.getByRole('heading', { level: 1 }).textContent();
  await page.getByRole('button', { name: 'İstek listesine ekle' }).click();
  await expect(page.getByRole('button', { name: 'İstek listenizde' })).toHaveAttribute('aria-pressed', 'true');
  await openFreeCourse(page, 'tr', 1);
  const secondTitle = await page.getByRole('heading', { level: 1 }).textContent();
  await page.getByRole('button', { name: 'İstek listesine ekle' }).click();

  await page.getByRole('link', { name: 'İstek listenizi görün' }).click();
  await expect(page).toHaveURL(/\/tr\/wishlist$/);
  await expect(page.getByRole('heading', { name: '2 kayıtlı kurs' })).toBeVisible();
  await expect(page.getByText('İstek listeniz bu tarayıcıda saklanıyor.')).toBeVisible();

  await signIn({ email: buyer.email, password: buyer.password });
  await page.reload();
  await expect(page.getByRole('heading', { name: '2 kayıtlı kurs' })).toBeVisible();
  await expect(page.getByText('İstek listeniz hesabınızda saklanıyor.', { exact: false })).toBeVisible();
  await expect(page.getByRole('link', { name: `Ücretsiz al: ${firstTitle!.trim()}` })).toBeVisible();

  // Another device signed in to the same account sees the same list.
  const other = await browser.newContext({ baseURL: baseURL! });
  const phone = await other.newPage();
  await phone.request.post('/api/auth/sign-in/email', {
    headers: { origin: baseURL! },
    data: { email: buyer.email, password: buyer.password },
  });
  await phone.goto('/tr/dashboard');
  const card = phone.getByRole('region', { name: 'İstek listeniz' });
  await expect(card.getByRole('link', { name: firstTitle!.trim(), exact: true })).toBeVisible();
  await expect(card.getByRole('link', { name: secondTitle!.trim(), exact: true })).toBeVisible();
  await expect(card.getByRole('link', { name: 'İstek listenizi görün (2)' })).toBeVisible();
  await other.close();

  await page.getByRole('button', { name: `İstek listesinden çıkar: ${secondTitle!.trim()}` }).click();
  await expect(page.getByRole('heading', { name: '1 kayıtlı kurs' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: '1 kayıtlı kurs' })).toBeVisible();
  await page.goto(`/tr/course/${first}`);
  await expect(page.getByRole('button', { name: 'İstek listenizde' })).toHaveAttribute('aria-pressed', 'true');
});
