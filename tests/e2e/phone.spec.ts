import { DEMO, expect, test, waitForIslands } from './fixtures.ts';

/** On a 375 px phone: courses on the first screen, filters behind a button, the account menu an icon. */
test.use({ viewport: { width: 375, height: 740 } });

test('the catalogue puts courses on the first screen and the filters behind a button, in both languages', async ({ page }) => {
  for (const [lang, button, apply] of [
    ['en', 'Filters', 'Apply filters'],
    ['tr', 'Filtreler', 'Filtreleri uygula'],
  ] as const) {
    await page.goto(`/${lang}/courses`);
    await waitForIslands(page);
    const first = page.getByRole('article').first();
    await expect(first).toBeInViewport();
    const filters = page.getByRole('button', { name: button, exact: true });
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('search')).toBeHidden();
    await filters.click();
    await expect(page.getByRole('search')).toBeVisible();
    await page.getByRole('searchbox').fill('budget');
    await page.getByRole('button', { name: apply }).click();
    await expect(page).toHaveURL(/search=budget/);
    await expect(page.getByRole('search')).toBeHidden();
    await expect(page.getByRole('button', { name: `${button} (1)` })).toBeVisible();
  }
});

test('a course page shows its price and buy button on the first screen of a 375×667 phone, with no layout shift, in both languages', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 667 });
  for (const [lang, buy] of [
    ['en', 'Buy now'],
    ['tr', 'Hemen satın al'],
  ] as const) {
    const catalogue = (await (await page.request.get(`/api/courses?language=${lang}`)).json()) as {
      courses: { id: string; priceMinor: number }[];
    };
    const paid = catalogue.courses.find((course) => course.priceMinor > 0)!;
    await page.goto(`/${lang}/course/${paid.id}`);
    await waitForIslands(page);
    const price = (await page.getByTestId('course-price').textContent())!.trim();
    await expect(page.getByRole('main').getByText(price, { exact: true }).first()).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('link', { name: buy, exact: true }).first()).toBeInViewport({ ratio: 1 });
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) total += (entry as unknown as { value: number }).value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 300);
        }),
    );
    expect(shift, 'cumulative layout shift').toBeLessThan(0.01);
  }
});

test('signed in, the account menu is an icon whose name still says the address; the page fits the phone', async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.buyer);
  await page.goto('/en/dashboard');
  const menu = page.locator('summary').filter({ hasText: 'Account menu' });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAccessibleName(`Account menu: ${DEMO.buyer.email}`);
  await expect(page.getByText(DEMO.buyer.email, { exact: true })).not.toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test("an admin section's heading, toolbar and first row are on the first screen, with every section a tap away", async ({
  page,
  signIn,
}) => {
  await signIn(DEMO.admin);
  for (const [lang, heading, search] of [
    ['en', 'Courses', 'Search courses'],
    ['tr', 'Kurslar', 'Kurslarda ara'],
  ] as const) {
    await page.goto(`/${lang}/admin/courses`);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeInViewport();
    await expect(page.getByLabel(search)).toBeInViewport();
    await expect(page.getByRole('table').getByRole('row').nth(1)).toBeInViewport();
    const menu = page.getByRole('navigation', { name: lang === 'en' ? 'Admin menu' : 'Yönetim menüsü' });
    // Every section of the admin's menu (AdminLayout.astro ADMIN_SECTIONS), subscribers, mail and taxes included.
    await expect(menu.getByRole('link')).toHaveCount(13);
    await expect(menu.getByRole('link', { name: heading })).toHaveAttribute('aria-current', 'page');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
});
