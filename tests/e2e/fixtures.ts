import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

export type { APIRequestContext, BrowserContext, Page } from '@playwright/test';

/**
 * What every end-to-end test stands on: the demo accounts, unique names (the e2e database outlives a
 * run), sign-in through the API where signing in is not what the test is about, removal of what a
 * test made even when it fails, and a page that fails the test on any console error or uncaught
 * exception it did not announce with `expectConsoleErrors`.
 */
export const DEMO = {
  admin: { email: 'admin@demo.microcourses.example', password: 'demo-admin-2026' },
  buyer: { email: 'buyer@demo.microcourses.example', password: 'demo-buyer-2026' },
} as const;

export interface Account {
  email: string;
  password: string;
}

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const uniqueEmail = (name: string) => `${name}-${unique()}@example.com`;

/** Waits until every React island on the page has hydrated, so clicks are not lost. */
export async function waitForIslands(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/**
 * The newest mail to an address whose subject matches, as the dev mailbox shows it once it has left
 * (each link's text is its address; a sign-in link gets its token only as the mail leaves).
 */
export async function openMail(page: Page, to: string, subject: string | RegExp, lang: 'en' | 'tr' = 'en') {
  const mail = page.getByRole('article', { name: subject }).first();
  await expect(async () => {
    await page.goto(`/${lang}/dev/mailbox?to=${encodeURIComponent(to)}`);
    await expect(mail.getByRole('link').first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  return mail;
}

/** Signs a browser context in through the API (its `request` shares the context's cookies). */
export async function apiSignIn(request: APIRequestContext, origin: string, account: Account): Promise<void> {
  const response = await request.post('/api/auth/sign-in/email', { headers: { origin }, data: account });
  expect(response.status(), `sign-in of ${account.email}`).toBe(200);
}

/** A fresh account, signed up (and so signed in) through the API of a browser context. */
export async function apiSignUp(
  request: APIRequestContext,
  origin: string,
  { name = 'buyer', language = 'en' }: { name?: string; language?: 'en' | 'tr' } = {},
): Promise<Account & { fullName: string }> {
  const account = { email: uniqueEmail(name), password: 'correct horse 2026', fullName: 'Test Buyer' };
  const response = await request.post('/api/auth/sign-up/email', {
    headers: { origin },
    data: { email: account.email, password: account.password, name: account.fullName, language },
  });
  expect(response.status(), `sign-up of ${account.email}`).toBe(200);
  return account;
}

/** Opens the confirmation mail the sign-up sent (in either language) from the page signed in as its account. */
export async function proveAddress(page: Page, email: string): Promise<void> {
  const confirm = await openMail(page, email, /^Confirm your e-mail address| için e-posta adresinizi doğrulayın$/);
  await confirm
    .getByRole('link', { name: /\/api\/auth\/verify-email/ })
    .first()
    .click();
  await page.waitForURL((url) => !url.pathname.includes('/dev/mailbox'));
}

/**
 * A buyer as the signed-in pages must fit: a fresh account (the page is signed in as it) that proved
 * its address, owns a Turkish and an English course bought through the demo payment (orders with
 * receipts) and has reviewed one. Not the demo buyer, whose library is empty.
 */
export async function buyerWithLibrary(page: Page, origin: string): Promise<Account & { fullName: string }> {
  const account = await apiSignUp(page.request, origin, { name: 'library' });
  await proveAddress(page, account.email);
  const headers = { origin };
  for (const lang of ['tr', 'en'] as const) {
    const catalogue = (await (await page.request.get(`/api/courses?language=${lang}`)).json()) as {
      courses: { id: string; priceMinor: number }[];
    };
    const courseId = catalogue.courses.find((course) => course.priceMinor > 0)!.id;
    const checkout = await page.request.post('/api/checkout', {
      headers,
      data: {
        courseId,
        email: account.email,
        fullName: account.fullName,
        language: lang,
        acceptTerms: true,
        waiveWithdrawal: true,
      },
    });
    expect(checkout.status(), `checkout in ${lang}`).toBe(200);
    const paymentId = ((await checkout.json()) as { redirectUrl: string }).redirectUrl.split('/').pop()!.split('?')[0]!;
    expect((await page.request.post(`/api/checkout/demo/${paymentId}`, { headers })).status()).toBe(200);
    if (lang === 'tr') {
      const review = await page.request.put(`/api/account/reviews/${courseId}`, {
        headers,
        data: { rating: 5, body: 'Kısa ve işe yarar; hemen uyguladım.' },
      });
      expect(review.status(), 'review').toBeLessThan(300);
    }
  }
  return account;
}

interface Api {
  /** JSON calls as a page of the shop makes them (same Origin), sharing the page's cookies. */
  get(path: string): Promise<unknown>;
  post(path: string, data?: unknown): ReturnType<APIRequestContext['post']>;
  delete(path: string): ReturnType<APIRequestContext['delete']>;
}

interface Fixtures {
  api: Api;
  /** Signs the page's browser in (session cookie), without the login form. */
  signIn: (account: Account) => Promise<void>;
  /** A fresh account, signed up through the API; the page is signed in as it. */
  newBuyer: (name?: string, language?: 'en' | 'tr') => Promise<Account & { fullName: string }>;
  /** Removes, after the test, the admin data a test made (by blog search text, category slug). */
  cleanup: { post(search: string): void; category(slug: string): void };
  /** Console errors this test provokes on purpose (a 404 page, a crash screen). */
  expectConsoleErrors: (pattern: RegExp) => void;
  consoleWatch: { problems: string[]; expected: RegExp[] };
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none.
  consoleWatch: async ({}, use) => {
    // Chromium logs every HTTP error answer as a console error; the tests that provoke one (a 404
    // page, a refused delete, a wrong password) assert it themselves. Everything else is a bug.
    await use({ problems: [], expected: [/Failed to load resource: the server responded with a status of [45]\d\d/] });
  },

  // Every page the test opens in its context is watched; the test fails on what it did not expect.
  context: async ({ context, consoleWatch }, use) => {
    // A blocked script, style or image is a bug: the page's own policy must allow all it uses.
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`Content-Security-Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`),
      ),
    );
    context.on('page', (page) => {
      page.on('console', (message) => {
        if (message.type() === 'error') consoleWatch.problems.push(`console.error: ${message.text()} (${page.url()})`);
      });
      page.on('pageerror', (error) => consoleWatch.problems.push(`uncaught: ${error.message} (${page.url()})`));
    });
    await use(context);
    const unexpected = consoleWatch.problems.filter((problem) => !consoleWatch.expected.some((pattern) => pattern.test(problem)));
    expect(unexpected, 'console errors or uncaught exceptions in the pages').toEqual([]);
  },

  expectConsoleErrors: async ({ consoleWatch }, use) => {
    await use((pattern) => consoleWatch.expected.push(pattern));
  },

  api: async ({ page, baseURL }, use) => {
    const headers = { origin: baseURL! };
    await use({
      get: async (path) => (await page.request.get(path)).json() as Promise<unknown>,
      post: (path, data) => page.request.post(path, { headers, ...(data === undefined ? {} : { data }) }),
      delete: (path) => page.request.delete(path, { headers }),
    });
  },

  signIn: async ({ page, baseURL }, use) => {
    await use((account) => apiSignIn(page.request, baseURL!, account));
  },

  newBuyer: async ({ page, baseURL }, use) => {
    await use((name, language) =>
      apiSignUp(page.request, baseURL!, { ...(name ? { name } : {}), ...(language ? { language } : {}) }),
    );
  },

  cleanup: async ({ page, baseURL }, use) => {
    const posts: string[] = [];
    const categories: string[] = [];
    await use({ post: (search) => posts.push(search), category: (slug) => categories.push(slug) });
    if (posts.length === 0 && categories.length === 0) return;
    // A context of its own, signed in as the admin: the test's page may be signed out or gone.
    const admin = await page.context().browser()!.newContext({ baseURL: baseURL! });
    const headers = { origin: baseURL! };
    try {
      await admin.request.post('/api/auth/sign-in/email', { headers, data: DEMO.admin });
      for (const search of posts) {
        const found = (await (await admin.request.get(`/api/admin/blog-posts?q=${encodeURIComponent(search)}`)).json()) as {
          posts: { id: string }[];
        };
        for (const post of found.posts) await admin.request.delete(`/api/admin/blog-posts/${post.id}`, { headers });
      }
      const all = (await (await admin.request.get('/api/admin/categories')).json()) as {
        categories: { id: string; slug: string }[];
      };
      for (const category of all.categories.filter((item) => categories.includes(item.slug)))
        await admin.request.delete(`/api/admin/categories/${category.id}`, { headers });
    } finally {
      await admin.close();
    }
  },
});

export { expect };
