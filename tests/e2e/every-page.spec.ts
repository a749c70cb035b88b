import { test, expect, DEMO, waitForIslands, type Page } from './fixtures.ts';
import { listRoutes, sampleUrl, type Access } from '../support/routes.ts';
import { axeViolations, FULL_SWEEP, htmlErrors, javaAvailable } from '../support/accessibility.ts';

/**
 * Every page of the shop, read from src/pages (a new page is swept the day it exists), opened in
 * both languages by the identity it is for, hydrated: no Content-Security-Policy violation, no
 * console error, no uncaught exception (the fixtures fail the test on any of them), no markup after
 * </html>. In English (both languages with `npm run test:sweep`), the accessibility gate too: zero
 * axe WCAG 2.2 A/AA violations and zero Nu Html Checker errors, and every page route scanned.
 */
const PAGES = listRoutes().filter((route) => route.kind === 'page');
const ACCESS_LEVELS: Access[] = ['public', 'user', 'admin'];

async function samples(page: Page, lang: 'en' | 'tr') {
  const catalogue = (await (await page.request.get(`/api/courses?language=${lang}`)).json()) as {
    courses: { id: string; priceMinor: number }[];
  };
  const paid = catalogue.courses.find((course) => course.priceMinor > 0)!;
  await page.goto(`/${lang}/blog`);
  const article = await page.getByRole('article').first().getByRole('link').first().getAttribute('href');
  return { courseId: paid.id, id: paid.id, slug: article!.split('/').pop()! };
}

/** A demo payment page needs an order waiting for it: one is started for the signed-in buyer. */
async function demoPaymentId(page: Page, baseURL: string, courseId: string, lang: 'en' | 'tr'): Promise<string> {
  const response = await page.request.post('/api/checkout', {
    headers: { origin: baseURL },
    data: { courseId, email: DEMO.buyer.email, fullName: 'Demo Buyer', language: lang, acceptTerms: true, waiveWithdrawal: true },
  });
  const { redirectUrl } = (await response.json()) as { redirectUrl: string };
  return redirectUrl.split('/').pop()!.split('?')[0]!;
}

async function sweep(page: Page, access: Access, lang: 'en' | 'tr', baseURL: string) {
  const audit = lang === 'en' || FULL_SWEEP;
  const values: Record<string, string> = await samples(page, lang);
  const scanned: string[] = [];
  const violations: string[] = [];
  const rendered: { url: string; html: string }[] = [];
  for (const route of PAGES.filter((candidate) => candidate.access === access)) {
    if (route.pattern.includes('[paymentId]')) values.paymentId = await demoPaymentId(page, baseURL, values.courseId!, lang);
    const url = sampleUrl(route.pattern, values, lang);
    const response = await page.goto(url);
    expect(response?.status(), url).toBeLessThan(500);
    const html = await response!.text();
    // Nothing after </html>: a page-level script outside its layout used to land there.
    expect(html.trimEnd().endsWith('</html>'), url).toBe(true);
    await waitForIslands(page);
    await expect(page.locator('main, [role="main"]').first(), url).toBeVisible();
    if (!audit) continue;
    violations.push(...(await axeViolations(page, url)));
    rendered.push({ url, html });
    scanned.push(route.pattern);
  }
  if (!audit) return;
  expect(violations, 'axe WCAG 2.2 A/AA violations').toEqual([]);
  // A page route no identity scans (a new access level, a typo in routes.ts) fails here.
  expect(scanned.sort()).toEqual(
    PAGES.filter((route) => route.access === access)
      .map((route) => route.pattern)
      .sort(),
  );
  if (await javaAvailable()) expect(await htmlErrors(rendered), 'Nu Html Checker errors').toEqual([]);
  else console.warn('Nu Html Checker not run: `java` is not on the PATH (the validator needs Java 11 or later).');
}

test('every page route belongs to an identity the sweep scans', () => {
  expect(PAGES.filter((route) => !ACCESS_LEVELS.includes(route.access)).map((route) => route.pattern)).toEqual([]);
  expect(PAGES.length).toBeGreaterThan(30);
});

for (const lang of ['en', 'tr'] as const) {
  test(`every public page in ${lang} loads with no CSP violation or console error`, async ({ page, baseURL }) => {
    await sweep(page, 'public', lang, baseURL!);
  });

  test(`every buyer page in ${lang} loads with no CSP violation or console error`, async ({ page, signIn, baseURL }) => {
    await signIn(DEMO.buyer);
    await sweep(page, 'user', lang, baseURL!);
  });

  test(`every admin page in ${lang} loads with no CSP violation or console error`, async ({ page, signIn, baseURL }) => {
    await signIn(DEMO.admin);
    await sweep(page, 'admin', lang, baseURL!);
  });
}
