import { readFileSync } from 'node:fs';
import { DEMO, expect, openMail, test, unique } from './fixtures.ts';
import { axeViolations } from '../support/accessibility.ts';
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../src/i18n/locales/tr.json' with { type: 'json' };

/**
 * Admin → Import in Chromium, in both languages: upload Gumroad's sample export, read the dry run,
 * map the product that matched no course, import with the mail ticked; then a buyer from the file
 * opens that mail's sign-in link and finds the course in their library. The page has no script: every
 * step is the browser's own form post. Each run imports fresh order ids and addresses (the e2e
 * database outlives a run, and a second import of the same orders rightly grants nothing).
 */
type Key = keyof typeof en;

function freshGumroadExport(): { file: Buffer; mara: string; emre: string } {
  const run = unique();
  const text = readFileSync('tests/fixtures/import/gumroad.csv', 'utf8')
    .replace(/([\w.]+)@example\.com/g, `$1-${run}@example.com`)
    .replace(/^([A-Za-z0-9+/-]{20,}==),/gm, `$1${run},`);
  return { file: Buffer.from(text), mara: `mara.quinn-${run}@example.com`, emre: `emre.aydin-${run}@example.com` };
}

for (const lang of ['en', 'tr'] as const) {
  const say = (key: Key, values: Record<string, string | number> = {}) =>
    Object.entries(values).reduce(
      (text, [name, value]) => text.replaceAll(`{{${name}}}`, String(value)),
      (lang === 'en' ? en : tr)[key],
    );

  test(`the admin imports Gumroad buyers and a buyer signs in by the mail's link to the course (${lang})`, async ({
    page,
    signIn,
  }) => {
    const { file, mara, emre } = freshGumroadExport();
    await signIn(DEMO.admin);
    await page.goto(`/${lang}/admin/import`);
    await page.getByLabel(say('admin.import.file')).setInputFiles({ name: 'Sales.csv', mimeType: 'text/csv', buffer: file });
    await page.getByRole('button', { name: say('admin.import.check') }).click();

    await expect(page).toHaveURL(new RegExp(`/${lang}/admin/import\\?id=`));
    await expect(
      page.getByRole('heading', { name: say('admin.import.dryRun', { file: 'Sales.csv', platform: 'Gumroad' }) }),
    ).toBeVisible();
    const summary = page.getByRole('definition');
    await expect(summary.nth(1)).toHaveText('6');
    await expect(page.getByText(say('admin.import.consents_other', { count: 2 }))).toBeVisible();
    // The product named like a course is mapped already; the other is chosen here.
    await expect(page.getByLabel(say('admin.import.courseFor', { product: 'Value-Based Pricing for Freelancers' }))).toHaveValue(
      /[0-9a-f-]{36}/,
    );
    await page
      .getByLabel(say('admin.import.courseFor', { product: 'Pricing Workshop Recording' }))
      .selectOption({ label: 'The 50/30/20 Budget in 20 Minutes (EN)' });
    await page.getByLabel(say('admin.import.sendMail')).check();
    expect(await axeViolations(page, 'import dry run'), 'import dry run').toEqual([]);
    await page.getByRole('button', { name: say('admin.import.import') }).click();

    await expect(
      page.getByRole('heading', { name: say('admin.import.outcome.title', { file: 'Sales.csv', platform: 'Gumroad' }) }),
    ).toBeVisible();
    const purchases = page.getByRole('definition').first();
    await expect(purchases).toHaveText('5');
    expect(await axeViolations(page, 'import done'), 'import done').toEqual([]);

    // The buyer: signed out, the import's mail, its sign-in button, the library. In Turkish, the buyer in Türkiye.
    await page.context().clearCookies();
    const buyer = lang === 'en' ? mara : emre;
    const subject = new RegExp(`^${say('mail.importedSubject').split('{{shop}}')[0]}`);
    const mail = await openMail(page, buyer, subject, lang);
    await mail.getByRole('link', { name: /magic-link\/verify/ }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/dashboard/courses$`));
    await expect(page.getByRole('main').getByText('Value-Based Pricing for Freelancers').first()).toBeVisible();
  });
}
