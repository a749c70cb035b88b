import { DEMO, expect, test, type Page, uniqueEmail, waitForIslands } from './fixtures.ts';
import { axeViolations, FULL_SWEEP } from '../support/accessibility.ts';
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../src/i18n/locales/tr.json' with { type: 'json' };

/**
 * The accessibility gate in the states a page route alone does not show: menus and dialogs open,
 * forms showing their errors, empty states, the checkout's success page, the catalogue filtered.
 * English in `npm test`; both languages with `npm run test:sweep`. Zero axe WCAG 2.2 A/AA violations.
 */
type Key = keyof typeof en;
const LANGUAGES = FULL_SWEEP ? (['en', 'tr'] as const) : (['en'] as const);

async function expectNoViolations(page: Page, state: string) {
  expect(await axeViolations(page, state), state).toEqual([]);
}

for (const lang of LANGUAGES) {
  const say = (key: Key) => (lang === 'en' ? en : tr)[key];

  test(`public states in ${lang}: mobile menu, filtered catalogue, forms with errors, a free enrolment's success page`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/${lang}/courses?category=technology&level=beginner&maxPrice=50`);
    await waitForIslands(page);
    await page.locator('summary', { hasText: new RegExp(`^${say('nav.menu')}$`) }).click();
    await expectNoViolations(page, 'mobile menu open, catalogue filtered');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.goto(`/${lang}/courses?search=zzzz-no-such-course`);
    await waitForIslands(page);
    await expectNoViolations(page, 'catalogue empty state');

    await page.goto(`/${lang}/contact`);
    await waitForIslands(page);
    await page.getByRole('button', { name: say('contact.send') }).click();
    await expect(page.getByText(say('validation.nameMin'))).toBeVisible();
    await expectNoViolations(page, 'contact form errors');

    await page.goto(`/${lang}/login`);
    await waitForIslands(page);
    await page.getByRole('button', { name: say('auth.loginButton'), exact: true }).click();
    await expectNoViolations(page, 'login form errors');

    const catalogue = (await (await page.request.get(`/api/courses?lang=${lang}&maxPrice=0`)).json()) as {
      courses: { id: string }[];
    };
    await page.goto(`/${lang}/checkout/${catalogue.courses[0]!.id}`);
    await waitForIslands(page);
    await page.getByRole('textbox', { name: say('checkout.email'), exact: true }).fill(uniqueEmail('a11y'));
    await page.getByLabel(say('checkout.fullName')).fill('Ayşe Yılmaz');
    await page.getByRole('button', { name: say('checkout.enrolFree') }).click();
    await expect(page.getByText(say('checkout.termsRequired'))).toBeVisible();
    await expectNoViolations(page, 'checkout errors');
    await page.getByRole('checkbox', { name: say('checkout.acceptTerms') }).check();
    await page.getByRole('button', { name: say('checkout.enrolFree') }).click();
    await expect(page).toHaveURL(/\/checkout\/success/);
    await expectNoViolations(page, 'checkout success');
  });

  test(`buyer states in ${lang}: account menu open, an empty library, settings errors`, async ({ page, newBuyer }) => {
    await newBuyer('a11y', lang);
    await page.goto(`/${lang}/dashboard/courses`);
    await page
      .locator('summary', { hasText: say('account.menu') })
      .first()
      .click();
    await expectNoViolations(page, 'account menu open, empty library');
    await page.goto(`/${lang}/dashboard/settings`);
    await waitForIslands(page);
    await page.getByRole('button', { name: say('settings.updatePassword'), exact: true }).click();
    await expectNoViolations(page, 'settings with errors');
  });

  test(`admin states in ${lang}: every editor and confirmation dialog open`, async ({ page, request, baseURL, signIn }) => {
    // A sale to refund: a guest's demo purchase.
    const catalogue = (await (await request.get(`/api/courses?lang=${lang}&minPrice=1`)).json()) as {
      courses: { id: string; priceMinor: number }[];
    };
    const paid = catalogue.courses.find((course) => course.priceMinor > 0)!;
    const checkout = await request.post('/api/checkout', {
      headers: { origin: baseURL! },
      data: {
        courseId: paid.id,
        email: uniqueEmail('refund'),
        fullName: 'Refund Me',
        language: lang,
        acceptTerms: true,
        waiveWithdrawal: true,
      },
    });
    const paymentId = ((await checkout.json()) as { redirectUrl: string }).redirectUrl.split('/').pop()!;
    expect((await request.post(`/api/checkout/demo/${paymentId}`, { headers: { origin: baseURL! } })).status()).toBe(200);
    await signIn(DEMO.admin);
    await page.goto(`/${lang}/admin`);
    await waitForIslands(page);
    await page
      .getByRole('button', { name: new RegExp(`^${say('admin.people.refund.button')}`) })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, 'refund confirmation open');
    await page.keyboard.press('Escape');

    const dialogs: [string, Key][] = [
      ['categories', 'admin.categories.new'],
      ['courses', 'admin.courses.add'],
      ['blogs', 'admin.blogs.new'],
      ['discounts', 'admin.discounts.new'],
    ];
    for (const [section, opener] of dialogs) {
      await page.goto(`/${lang}/admin/${section}`);
      await waitForIslands(page);
      await page.getByRole('button', { name: say(opener), exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, `${section} editor open`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
    }
    await page.goto(`/${lang}/admin/categories`);
    await waitForIslands(page);
    await page
      .getByRole('button', { name: new RegExp(`^${say('admin.delete')}`) })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, 'delete confirmation open');
    await page.keyboard.press('Escape');

    await page.goto(`/${lang}/admin/settings`);
    await waitForIslands(page);
    await page.getByLabel(say('admin.settings.shopName')).fill('');
    await page.getByRole('button', { name: say('admin.settings.save') }).click();
    await expect(page.getByText(say('admin.settings.shopNameRequired'))).toBeVisible();
    await expectNoViolations(page, 'settings errors');

    // Admin → Mail with a saved broadcast: its preview frames at phone and desktop widths.
    await page.goto(`/${lang}/admin/mail`);
    await page.getByLabel(say('admin.mail.subject'), { exact: true }).fill(`A11y ${lang}`);
    await page.getByLabel(say('admin.mail.body')).fill('## Hello\n\nA [link](https://example.com).');
    await page.getByRole('button', { name: say('admin.mail.save') }).click();
    await expect(page.getByRole('status')).toHaveText(say('admin.mail.done.saved'));
    await expectNoViolations(page, 'mail composer with its preview');
  });
}
