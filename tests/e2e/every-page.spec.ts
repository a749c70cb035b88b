import { request } from '@playwright/test';
import {
  test,
  expect,
  buyerWithLibrary,
  DEMO,
  uniqueEmail,
  waitForIslands,
  type APIRequestContext,
  type Page,
} from './fixtures.ts';
import { listRoutes, sampleUrl, type Access } from '../support/routes.ts';
import { axeViolations, FULL_SWEEP, htmlErrors, javaAvailable } from '../support/accessibility.ts';
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../src/i18n/locales/tr.json' with { type: 'json' };

/**
 * Every page of the shop, read from src/pages (a new page is swept the day it exists), opened in
 * both languages by the identity it is for, hydrated: no Content-Security-Policy violation, no
 * console error, no uncaught exception (the fixtures fail the test on any of them), no markup after
 * </html>. For the public pages in English and a buyer's in both (everything with `npm run test:sweep`),
 * the accessibility gate too: zero axe WCAG 2.2 A/AA violations and zero Nu Html Checker errors, and every
 * page route scanned. A buyer's pages are opened by a buyer who owns courses, reviewed one and has
 * orders: an empty library hides what grows too wide or is misnamed. The full sweep also opens the
 * states of a page a route alone does not show (`stateUrls`) the same way.
 */
const PAGES = listRoutes().filter((route) => route.kind === 'page');
const ACCESS_LEVELS: Access[] = ['public', 'user', 'admin'];
/** Phone, small phone, tablet: no page may scroll sideways at any of them. */
const WIDTHS = FULL_SWEEP ? [320, 375, 768] : [375];
/** A buyer's pages hold rows of owned courses beside a menu: the tablet is where they grew too wide. */
const BUYER_WIDTHS = FULL_SWEEP ? WIDTHS : [375, 768];

/** The widths at which the page scrolls sideways (its content wider than the window). */
async function sidewaysAt(page: Page, url: string, widths = WIDTHS): Promise<string[]> {
  const found: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    const { scroll, inner } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    if (scroll > inner) found.push(`${url} at ${width} px is ${scroll} px wide`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  return found;
}

async function samples(page: Page, lang: 'en' | 'tr') {
  const catalogue = (await (await page.request.get(`/api/courses?language=${lang}`)).json()) as {
    courses: { id: string; priceMinor: number }[];
  };
  const [paid, otherPaid] = catalogue.courses.filter((course) => course.priceMinor > 0);
  await page.goto(`/${lang}/blog`);
  const article = await page.getByRole('article').first().getByRole('link').first().getAttribute('href');
  return { courseId: paid!.id, id: paid!.id, otherCourseId: otherPaid!.id, slug: article!.split('/').pop()! };
}

/** A guest's checkout of a course through the demo provider (paid too, when asked): its payment id. */
async function guestCheckout(
  guest: APIRequestContext,
  origin: string,
  courseId: string,
  lang: 'en' | 'tr',
  { pay = false, email = uniqueEmail('sweep') } = {},
) {
  const headers = { origin };
  const response = await guest.post('/api/checkout', {
    headers,
    data: {
      courseId,
      email,
      fullName: 'Demo Buyer',
      language: lang,
      acceptTerms: true,
      waiveWithdrawal: true,
    },
  });
  expect(response.status(), 'a guest checkout for the sweep').toBe(200);
  const { redirectUrl } = (await response.json()) as { redirectUrl: string };
  const paymentId = redirectUrl.split('/').pop()!.split('?')[0]!;
  if (pay) expect((await guest.post(`/api/checkout/demo/${paymentId}`, { headers })).status(), 'the demo payment').toBe(200);
  return paymentId;
}

/**
 * A demo payment page needs an order waiting for it: one is started by a guest of its own (the page's
 * buyer may own the course already).
 */
async function demoPaymentId(baseURL: string, courseId: string, lang: 'en' | 'tr'): Promise<string> {
  const guest = await request.newContext({ baseURL });
  try {
    return await guestCheckout(guest, baseURL, courseId, lang);
  } finally {
    await guest.dispose();
  }
}

/**
 * Pages in states a route alone does not show, each with what proves the state is there, for the
 * full sweep: the gift checkout (decision 52), and a guest's success page offering the next course
 * (decision 53). For the offer, another buyer bought the course with a second one first, so there is
 * a course its buyers bought too (or the seller's choice) that this guest does not own.
 */
async function stateUrls(page: Page, access: Access, lang: 'en' | 'tr', baseURL: string, values: Record<string, string>) {
  if (!FULL_SWEEP || access !== 'public') return [];
  const say = lang === 'en' ? en : tr;
  const earlier = await request.newContext({ baseURL });
  try {
    const email = uniqueEmail('sweep-pair');
    for (const courseId of [values.courseId!, values.otherCourseId!])
      await guestCheckout(earlier, baseURL, courseId, lang, { pay: true, email });
  } finally {
    await earlier.dispose();
  }
  const paid = await guestCheckout(page.request, baseURL, values.courseId!, lang, { pay: true });
  return [
    { url: `/${lang}/checkout/${values.courseId}?gift`, shows: page.getByRole('heading', { name: say['gifts.checkoutTitle'] }) },
    { url: `/${lang}/checkout/success?session_id=${paid}`, shows: page.getByRole('region', { name: say['offer.heading'] }) },
  ];
}

async function sweep(page: Page, access: Access, lang: 'en' | 'tr', baseURL: string, { widthsOnly = false } = {}) {
  // The full sweep opens every page at several widths, scans and validates it: more than the default 30 s.
  test.setTimeout(FULL_SWEEP ? 180_000 : 90_000);
  // A buyer's pages in both languages: download buttons and reviews speak Turkish there. The admin's
  // pages (the same few components as the admin-states test audits) are audited by the sweep.
  const audit = (FULL_SWEEP || access === 'user' || (lang === 'en' && access === 'public')) && !widthsOnly;
  const sideways: string[] = [];
  const values: Record<string, string> = await samples(page, lang);
  const scanned: string[] = [];
  const violations: string[] = [];
  const rendered: { url: string; html: string }[] = [];
  const visit = async (url: string) => {
    const response = await page.goto(url);
    expect(response?.status(), url).toBeLessThan(500);
    const html = await response!.text();
    // Nothing after </html>: a page-level script outside its layout used to land there.
    expect(html.trimEnd().endsWith('</html>'), url).toBe(true);
    await waitForIslands(page);
    await expect(page.locator('main, [role="main"]').first(), url).toBeVisible();
    if (access === 'user') sideways.push(...(await sidewaysAt(page, url, BUYER_WIDTHS)));
    else if (lang === 'en' || FULL_SWEEP) sideways.push(...(await sidewaysAt(page, url)));
    if (!audit) return;
    violations.push(...(await axeViolations(page, url)));
    rendered.push({ url, html });
  };
  for (const route of PAGES.filter((candidate) => candidate.access === access)) {
    if (route.pattern.includes('[paymentId]')) values.paymentId = await demoPaymentId(baseURL, values.courseId!, lang);
    await visit(sampleUrl(route.pattern, values, lang));
    if (audit) scanned.push(route.pattern);
  }
  for (const state of widthsOnly ? [] : await stateUrls(page, access, lang, baseURL, values)) {
    await visit(state.url);
    await expect(state.shows, state.url).toBeVisible();
  }
  expect(sideways, 'pages wider than the window').toEqual([]);
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

  test(`every buyer page in ${lang} loads with no CSP violation or console error`, async ({ page, baseURL }) => {
    await buyerWithLibrary(page, baseURL!);
    await sweep(page, 'user', lang, baseURL!);
  });

  test(`every admin page in ${lang} loads with no CSP violation or console error`, async ({ page, signIn, baseURL }) => {
    await signIn(DEMO.admin);
    await sweep(page, 'admin', lang, baseURL!);
  });

  // The header holds the account menu when signed in: the public pages must still fit a phone.
  if (FULL_SWEEP)
    test(`every public page in ${lang}, signed in, fits a phone`, async ({ page, baseURL }) => {
      await buyerWithLibrary(page, baseURL!);
      await sweep(page, 'public', lang, baseURL!, { widthsOnly: true });
    });
}
