import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { startBenchWorld } from './bench-server.ts';
import { testBrowser } from '../support/browser.ts';

/**
 * `npm run lighthouse`: Lighthouse (mobile, default throttling) on the pages readers land on, in both
 * languages, against the built server on real PostgreSQL. Prints the four category scores per page.
 */

buildIfNeeded();
const world = await startBenchWorld({ courses: 200 });
const browser = await testBrowser();
console.log(`Lighthouse browser: ${browser.kind} Chromium (${browser.executablePath})`);
const chrome = await launch({ chromePath: browser.executablePath, chromeFlags: ['--headless=new', ...browser.args] });
try {
  const courseId = (
    await world.database
      .selectFrom('courses')
      .select('id')
      .where('language', '=', 'tr')
      .where('is_active', '=', true)
      .executeTakeFirstOrThrow()
  ).id;
  const pages = [
    '/en/',
    '/tr/',
    `/en/course/${courseId}`,
    `/tr/course/${courseId}`,
    '/en/about',
    '/tr/privacy',
    '/en/contact',
    '/en/blog',
    '/tr/blog',
    '/en/blog/first-monthly-budget',
    '/tr/blog/ilk-aylik-butcenizi-yapin',
    '/en/courses',
  ];
  const rows = [];
  for (const path of pages) {
    const result = await lighthouse(`${world.baseUrl}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    const categories = result!.lhr.categories;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    rows.push({
      page: path.replace(courseId, '{id}'),
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best practices': score('best-practices'),
      seo: score('seo'),
      'LCP ms': Math.round(result!.lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      'TBT ms': Math.round(result!.lhr.audits['total-blocking-time']?.numericValue ?? 0),
    });
  }
  console.log('\nLighthouse, mobile preset (simulated slow 4G, 4× CPU slowdown):');
  console.table(rows);
} finally {
  chrome.kill();
  await world.stop();
}
