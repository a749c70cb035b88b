import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { startBenchWorld } from './bench-server.ts';
import { testBrowser } from '../support/browser.ts';

/**
 * `npm run lighthouse`: Lighthouse (mobile, default throttling) on the pages readers land on and the
 * pages with islands (catalogue, checkout, sign-in), in both languages, against the built server on
 * real PostgreSQL. Prints the four category scores and the JavaScript transferred per page.
 *
 * Each page runs `LIGHTHOUSE_RUNS` times (default 3) and the median run is reported, as Lighthouse
 * advises for its variability: one run on a busy 2-core machine can lose a point of performance to
 * the machine rather than the page.
 */

/**
 * The page's JavaScript as a phone gets it: every script Lighthouse saw, brotli-compressed here (the
 * headless browser talks plain HTTP to the test server, where Chromium asks for gzip only).
 */
/** The element Lighthouse took as the largest paint, as a short HTML snippet: what to look at when LCP is slow. */
function lcpElement(lhr: { audits: Record<string, { details?: unknown }> }): string {
  const details = lhr.audits['largest-contentful-paint-element']?.details as
    { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
  return details?.items?.[0]?.items?.[0]?.node?.snippet ?? 'unknown';
}

function brotliScriptBytes(lhr: { audits: Record<string, { details?: unknown }> }): number {
  const details = lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] } | undefined;
  const scripts = (details?.items ?? []).filter((item) => item.resourceType === 'Script');
  return scripts.reduce((sum, item) => sum + (scriptSizes.get(item.url) ?? 0), 0);
}

/** Brotli sizes of the built scripts, by URL path (`/_astro/…`). */
const scriptSizes = new Map<string, number>();
async function measureScripts(baseUrl: string): Promise<void> {
  const folder = join('dist', 'client', '_astro');
  for (const name of await readdir(folder)) {
    if (name.endsWith('.js'))
      scriptSizes.set(`${baseUrl}/_astro/${name}`, brotliCompressSync(await readFile(join(folder, name))).length);
  }
}

buildIfNeeded();
const world = await startBenchWorld({ courses: 200 });
await measureScripts(world.baseUrl);
const browser = await testBrowser();
console.log(`Lighthouse browser: ${browser.kind} Chromium (${browser.executablePath})`);
const chrome = await launch({ chromePath: browser.executablePath, chromeFlags: ['--headless=new', ...browser.args] });
try {
  const courseOf = async (language: 'en' | 'tr') =>
    (
      await world.database
        .selectFrom('courses')
        .select('id')
        .where('language', '=', language)
        .where('is_active', '=', true)
        .where('price_minor', '>', 0)
        .executeTakeFirstOrThrow()
    ).id;
  const courses = { en: await courseOf('en'), tr: await courseOf('tr') };
  const pages = (['en', 'tr'] as const).flatMap((lang) => [
    `/${lang}/`,
    `/${lang}/courses`,
    `/${lang}/course/${courses[lang]}`,
    `/${lang}/checkout/${courses[lang]}`,
    `/${lang}/login`,
    `/${lang}/blog`,
    lang === 'en' ? '/en/blog/first-monthly-budget' : '/tr/blog/ilk-aylik-butcenizi-yapin',
    `/${lang}/about`,
    `/${lang}/contact`,
    `/${lang}/privacy`,
  ]);
  // `npm run lighthouse -- /en/courses`: only the pages whose path contains an argument.
  const wanted = process.argv.slice(2);
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  const rows = [];
  for (const path of pages.filter((page) => wanted.length === 0 || wanted.some((part) => page.includes(part)))) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      const result = await lighthouse(`${world.baseUrl}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      results.push(result!.lhr);
    }
    const lhr: (typeof results)[number] = computeMedianRun(results);
    const categories = lhr.categories;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    rows.push({
      page: path.replace(courses.en, '{id}').replace(courses.tr, '{id}'),
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best practices': score('best-practices'),
      seo: score('seo'),
      'performance, every run': results.map((one) => Math.round((one.categories['performance']?.score ?? 0) * 100)).join(' '),
      'LCP ms': Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      'TBT ms': Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
      'JS KB (br)': (brotliScriptBytes(lhr) / 1024).toFixed(1),
    });
    const failed = Object.values(categories).filter((category) => (category.score ?? 0) < 1);
    for (const category of failed) {
      const audits = category.auditRefs
        .map((ref) => lhr.audits[ref.id])
        .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative');
      console.log(`${path} ${category.id}: ${audits.map((audit) => audit!.id).join(', ')}`);
      for (const audit of audits) {
        const items = (audit!.details as { items?: unknown } | undefined)?.items;
        const urls = Array.isArray(items)
          ? items.map((item: { url?: unknown }) => item.url).filter((url) => typeof url === 'string')
          : [];
        console.log(`  ${audit!.id}: ${audit!.displayValue ?? ''} ${urls.join(' ')}`);
      }
      if (category.id === 'performance') console.log(`  LCP element: ${lcpElement(lhr)}`);
    }
  }
  console.log(`\nLighthouse, mobile preset (simulated slow 4G, 4× CPU slowdown), median of ${runs} runs:`);
  console.table(rows);
} finally {
  chrome.kill();
  await world.stop();
}
