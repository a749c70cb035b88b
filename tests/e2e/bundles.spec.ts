import { DEMO, expect, test, waitForIslands, type Page } from './fixtures.ts';
import { demoCourseId } from '../../functions/seed/demo-ids.ts';
import { axeViolations } from '../support/accessibility.ts';

/**
 * The demo bundle (decisions 44 and 54): three English courses at $16.98 apart, $12.99 together
 * (€11.99 and ₺499 in the other currencies, its text in Turkish too). A buyer who
 * owns one of them pays the bundle's price less that course's share ($4.99 of $16.98: $9.17), and
 * gets the other two, each with its own stamped download.
 */
const BUNDLE_ID = demoCourseId('freelance-first-year-bundle');
const OWNED_ID = demoCourseId('star-method-interview-answers');
const TURKISH_TITLE = 'İlk Serbest Çalışma Yılınız: Üç Kurslu Paket';
const TITLES = [
  'Value-Based Pricing for Freelancers',
  'Answer Any Behavioural Interview Question with STAR',
  'Lock Down Your Accounts: Password Managers and 2FA',
];

async function buyThroughDemo(page: Page, origin: string, courseId: string, email: string, fullName: string) {
  const headers = { origin };
  const checkout = await page.request.post('/api/checkout', {
    headers,
    data: { courseId, email, fullName, language: 'en', acceptTerms: true, waiveWithdrawal: true },
  });
  expect(checkout.status()).toBe(200);
  const paymentId = ((await checkout.json()) as { redirectUrl: string }).redirectUrl.split('/').pop()!.split('?')[0]!;
  expect((await page.request.post(`/api/checkout/demo/${paymentId}`, { headers })).status()).toBe(200);
}

test('a buyer who owns one course of the bundle sees it, pays the lowered price and gets every course', async ({
  page,
  newBuyer,
  baseURL,
}) => {
  const buyer = await newBuyer('bundle');
  await buyThroughDemo(page, baseURL!, OWNED_ID, buyer.email, buyer.fullName);

  await page.goto(`/en/course/${BUNDLE_ID}`);
  await waitForIslands(page);
  const contents = page.getByRole('region', { name: 'Courses in this bundle' });
  await expect(contents.getByText('Bundle · 3 courses')).toBeVisible();
  await expect(contents.getByText('Save $3.99 on $16.98 bought separately')).toBeVisible();
  // "You own this" beside the course the buyer has, and only there.
  await expect(contents.getByText('You own this').filter({ visible: true })).toHaveCount(1);
  await expect(contents.getByRole('listitem').filter({ hasText: 'STAR' }).getByText('You own this')).toBeVisible();
  expect(await axeViolations(page, 'the bundle page, signed in')).toEqual([]);

  await page.getByRole('complementary').getByRole('link', { name: 'Buy now' }).click();
  await expect(page.getByTestId('checkout-price')).toHaveText('$9.17 USD');
  await expect(page.getByTestId('bundle-reduced')).toContainText('You own 1 of these courses already');
  await waitForIslands(page);
  await page.getByRole('checkbox', { name: 'I agree to the Terms of service.' }).check();
  await page.getByRole('checkbox', { name: /I ask for immediate access/ }).check();
  await page.getByRole('button', { name: 'Proceed to payment' }).click();
  await page.getByRole('button', { name: 'Pay $9.17' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();

  // One order, a download per course, each its own (and stamped) file.
  const downloads = page.getByRole('list', { name: 'Your courses' }).getByRole('link');
  await expect(downloads).toHaveCount(3);
  for (const title of TITLES) await expect(downloads.filter({ hasText: title })).toHaveCount(1);
  const hrefs = await downloads.evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  expect(new Set(hrefs).size).toBe(3);
  const file = await page.request.get(hrefs[2]!);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('application/pdf');

  await page.goto('/en/dashboard/courses');
  for (const title of TITLES) await expect(page.getByRole('main').getByText(title, { exact: true }).first()).toBeVisible();
});

test('the Turkish catalogue and page show the bundle in Turkish and in lira, and sell it in euros too', async ({ page }) => {
  await page.goto('/tr/courses?language=all&search=Freelance%20Year');
  await waitForIslands(page);
  const card = page.getByRole('article').filter({ hasText: TURKISH_TITLE });
  await expect(card.getByText('Paket · 3 kurs')).toBeVisible();
  await expect(card.getByText(/₺499,00/).filter({ visible: true })).toHaveCount(1);
  // Its courses are priced in dollars: no saving is claimed in lira.
  await expect(card.getByText(/tasarruf/)).toHaveCount(0);
  await card.getByRole('heading').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: TURKISH_TITLE })).toBeVisible();
  await expect(page.getByText(/Yeni bir serbest çalışanın ilk yılında/)).toBeVisible();
  await expect(page.getByTestId('course-price')).toHaveText(/₺499/);
  const contents = page.getByRole('region', { name: 'Bu paketteki kurslar' });
  await expect(contents.getByRole('listitem')).toHaveCount(3);
  await expect(contents.getByText(/Satın almadan önce giriş yapın/)).toBeVisible();
  // The phone-width rule of the every-page sweep, on the bundle's page.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // Its euro price leads to a checkout in euros, the summary in Turkish.
  await page
    .getByRole('complementary')
    .getByRole('link', { name: /€11,99/ })
    .click();
  await expect(page).toHaveURL(/currency=EUR/);
  await expect(page.getByTestId('checkout-price')).toHaveText(/€11,99 EUR/);
  await expect(page.getByRole('heading', { name: TURKISH_TITLE })).toBeVisible();
});

test('the admin sees the bundle in both languages and its price per currency, and the Turkish title is required', async ({
  page,
  signIn,
}) => {
  const title = 'Your First Freelance Year: Three-Course Bundle';
  await signIn(DEMO.admin);
  await page.goto('/en/admin/courses');
  await waitForIslands(page);
  await page.getByLabel('Search courses').fill('Freelance Year');
  await page
    .getByRole('row')
    .filter({ hasText: title })
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await expect(dialog.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
  await expect(dialog.getByLabel('Title (Turkish)')).toHaveValue(TURKISH_TITLE);
  await expect(dialog.getByLabel('Price in EUR')).toHaveValue('11.99');
  await expect(dialog.getByLabel('Price in TRY')).toHaveValue('499.00');
  // Its own language's text is the title above: no second English field.
  await expect(dialog.getByLabel('Title (English)')).toHaveCount(0);
  await dialog.getByLabel('Title (Turkish)').fill(' ');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByText('The Turkish title is required')).toBeVisible();
});
