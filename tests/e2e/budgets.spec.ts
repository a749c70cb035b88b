import { brotliCompressSync } from 'node:zlib';
import { DEMO, expect, test, type Page } from './fixtures.ts';
import { FULL_SWEEP } from '../support/accessibility.ts';

/**
 * JavaScript budgets, measured as a phone gets it: every script a page loads in Chromium, brotli-
 * compressed. Static pages ≤ 12 KB, the course page ≤ 30 KB (plain scripts over nanostores), pages
 * with React islands ≤ 80 KB, React included. A page over its budget fails here, in `npm test`.
 */
const KB = 1024;
const BUDGETS = { static: 12 * KB, course: 30 * KB, island: 80 * KB } as const;

async function scriptBytes(page: Page, path: string): Promise<number> {
  const scripts = new Map<string, Promise<Buffer>>();
  const listener = (response: import('@playwright/test').Response) => {
    if (response.request().resourceType() === 'script') scripts.set(response.url(), response.body());
  };
  page.on('response', listener);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', listener);
  const bodies = await Promise.all(scripts.values());
  return bodies.reduce((sum, body) => sum + brotliCompressSync(body).length, 0);
}

async function courseIdOf(page: Page, lang: 'en' | 'tr'): Promise<string> {
  const { courses } = (await (await page.request.get(`/api/courses?lang=${lang}`)).json()) as { courses: { id: string }[] };
  return courses[0]!.id;
}

const report: string[] = [];
test.afterAll(() => console.log(`\nJavaScript per page (brotli):\n${report.join('\n')}`));

// One language in `npm test` (the same islands carry either language's strings); both in `npm run test:sweep`.
for (const lang of FULL_SWEEP ? (['en', 'tr'] as const) : (['en'] as const)) {
  test(`pages in ${lang} stay within their JavaScript budgets`, async ({ page, signIn }) => {
    const course = await courseIdOf(page, lang);
    const pages: [string, keyof typeof BUDGETS][] = [
      [`/${lang}/`, 'static'],
      [`/${lang}/blog`, 'static'],
      [`/${lang}/about`, 'static'],
      [`/${lang}/contact`, 'static'],
      [`/${lang}/help`, 'static'],
      [`/${lang}/terms`, 'static'],
      [`/${lang}/course/${course}`, 'course'],
      [`/${lang}/courses`, 'island'],
      [`/${lang}/checkout/${course}`, 'island'],
      [`/${lang}/login`, 'island'],
      [`/${lang}/signup`, 'island'],
    ];
    const over: string[] = [];
    const measure = async (path: string, kind: keyof typeof BUDGETS) => {
      const bytes = await scriptBytes(page, path);
      report.push(`  ${(bytes / KB).toFixed(1).padStart(6)} KB  ${kind.padEnd(6)} ${path.replace(course, '{id}')}`);
      if (bytes > BUDGETS[kind]) over.push(`${path}: ${(bytes / KB).toFixed(1)} KB > ${BUDGETS[kind] / KB} KB`);
    };
    for (const [path, kind] of pages) await measure(path, kind);
    await signIn(DEMO.buyer);
    for (const path of [`/${lang}/dashboard`, `/${lang}/dashboard/settings`]) await measure(path, 'island');
    expect(over, 'pages over their JavaScript budget').toEqual([]);
  });
}
