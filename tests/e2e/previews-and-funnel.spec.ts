import { DEMO, expect, test, unique, uniqueEmail, waitForIslands } from './fixtures.ts';
import { demoCourseId } from '../../functions/seed/demo-ids.ts';

/** The demo course with a free preview (content/catalogue/demo-catalogue.json: pages 1–3). */
const PREVIEWED = 'Value-Based Pricing for Freelancers';
const PREVIEWED_KEY = 'value-based-pricing-for-freelancers';

const WORDS = {
  en: {
    preview: 'Download a free preview',
    buy: 'Buy now',
    email: 'Email',
    name: 'Full name',
    terms: 'I agree to the Terms of service.',
    waive: /I ask for immediate access/,
    proceed: 'Proceed to payment',
    pay: /^Pay /,
  },
  tr: {
    preview: 'Ücretsiz önizlemeyi indir',
    buy: 'Hemen satın al',
    email: 'E-posta',
    name: 'Ad soyad',
    terms: /Kullanım Koşulları'nı/,
    waive: /Kursa hemen erişmek istiyorum/,
    proceed: 'Ödemeye geç',
    pay: / öde$/,
  },
} as const;

for (const lang of ['en', 'tr'] as const) {
  test(`${lang}: a signed-out visitor from a tagged link downloads the free preview, then buys; the seller's funnel shows the view, the checkout and the payment`, async ({
    page,
    browser,
    baseURL,
    signIn,
  }) => {
    const words = WORDS[lang];
    const campaign = `e2e-${lang}-${unique()}`;
    const visitorContext = await browser.newContext({ baseURL: baseURL!, acceptDownloads: true });
    const visitor = await visitorContext.newPage();
    await visitor.goto(
      `/${lang}/course/${demoCourseId(PREVIEWED_KEY)}?utm_source=${campaign}&utm_medium=email&utm_campaign=spring`,
    );

    const [download] = await Promise.all([
      visitor.waitForEvent('download'),
      visitor.getByRole('link', { name: words.preview }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${PREVIEWED} (Preview).pdf`);
    const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await visitor.getByRole('link', { name: words.buy }).first().click();
    await expect(visitor).toHaveURL(new RegExp(`utm_source=${campaign}`));
    await waitForIslands(visitor);
    await visitor.getByRole('textbox', { name: words.email, exact: true }).fill(uniqueEmail('funnel'));
    await visitor.getByLabel(words.name).fill('Funnel Visitor');
    await visitor.getByRole('checkbox', { name: words.terms }).check();
    await visitor.getByRole('checkbox', { name: words.waive }).check();
    await visitor.getByRole('button', { name: words.proceed }).click();
    await expect(visitor).toHaveURL(new RegExp(`/${lang}/checkout/demo/demo_`));
    await visitor.getByRole('button', { name: words.pay }).click();
    await expect(visitor).toHaveURL(new RegExp(`/${lang}/checkout/success\\?session_id=demo_`));
    await visitorContext.close();

    await signIn(DEMO.admin);
    const row = page.getByTestId('funnel-table').getByRole('row').filter({ hasText: campaign });
    // The server adds its counted views to the database every couple of seconds.
    await expect(async () => {
      await page.goto(`/${lang}/admin/analytics?period=1month`);
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        expect.any(String),
        `${campaign} / email / spring`,
        '—',
        '1',
        '1',
        '1',
        '100 %',
        '100 %',
      ]);
    }).toPass({ timeout: 20_000 });
    await expect(row.getByRole('rowheader')).toHaveText(PREVIEWED);
  });
}
