import { expect, test, type Page, uniqueEmail, waitForIslands } from './fixtures.ts';

/** The demo's pay-what-you-want course: minimum US$1.00, suggested US$3.99. */
async function openCheckout(page: Page, lang: 'en' | 'tr') {
  await page.goto(`/${lang}/courses?language=en&search=Calm%20Down`);
  await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
  const words = {
    en: ['Pay what you want', 'Suggested $3.99, at least $1.00', 'Buy now'],
    tr: ['Ne isterseniz ödeyin', 'Önerilen $3,99, en az $1,00', 'Hemen satın al'],
  }[lang];
  await expect(page.getByTestId('course-price')).toHaveText(words[0]!);
  await expect(page.getByText(words[1]!)).toBeVisible();
  await page.getByRole('link', { name: words[2]! }).click();
  await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/[0-9a-f-]{36}$`));
  await waitForIslands(page);
}

const WORDS = {
  en: {
    field: 'Your price (USD)',
    email: 'Email',
    name: 'Full name',
    terms: 'I agree to the Terms of service.',
    waive: /I ask for immediate access/,
    proceed: 'Proceed to payment',
    below: 'That is below the minimum price the seller set.',
    pay: (amount: string) => `Pay ${amount}`,
    paid: 'Payment successful!',
  },
  tr: {
    field: 'Ödeyeceğiniz fiyat (USD)',
    email: 'E-posta',
    name: 'Ad soyad',
    terms: /^Kullanım Koşulları'nı, Ön Bilgilendirme Formu'nu/,
    waive: /Kursa hemen erişmek istiyorum/,
    proceed: 'Ödemeye geç',
    below: 'Bu tutar, satıcının belirlediği asgari fiyatın altında.',
    pay: (amount: string) => `${amount} öde`,
    paid: 'Ödeme başarılı!',
  },
};

for (const [lang, named, amount] of [
  ['en', '1', '$1.00'],
  ['tr', '5,50', '$5,50'],
] as const) {
  test(`a buyer names a price below the minimum (refused at the field), then ${lang === 'en' ? 'the minimum' : 'more'} and pays it (${lang})`, async ({
    page,
  }) => {
    const words = WORDS[lang];
    await openCheckout(page, lang);
    const price = page.getByRole('textbox', { name: words.field });
    await expect(price).toHaveValue('3.99');
    await page.getByRole('textbox', { name: words.email, exact: true }).fill(uniqueEmail(`pwyw-${lang}`));
    await page.getByLabel(words.name).fill('Deniz Kaya');
    await page.getByRole('checkbox', { name: words.terms }).check();
    await page.getByRole('checkbox', { name: words.waive }).check();

    await price.fill('0.50');
    await page.getByRole('button', { name: words.proceed }).click();
    await expect(page.getByText(words.below)).toBeVisible();
    await expect(price).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/[0-9a-f-]{36}$`));

    await price.fill(named);
    await price.press('Enter');
    await page.getByRole('button', { name: words.proceed }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/demo/demo_`));
    await page.getByRole('button', { name: words.pay(amount) }).click();
    await expect(page.getByRole('heading', { name: words.paid })).toBeVisible();
  });
}

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('"Update price" refuses a price below the minimum at its field, then the named price is paid (en)', async ({ page }) => {
    const words = WORDS.en;
    await page.goto('/en/courses?language=en&search=Calm%20Down');
    await page.getByRole('article').first().getByRole('heading').getByRole('link').click();
    await page.getByRole('link', { name: 'Buy now' }).click();
    const price = page.getByRole('textbox', { name: words.field });
    await price.fill('0.50');
    await page.getByRole('button', { name: 'Update price' }).click();
    await expect(page.getByText(words.below)).toBeVisible();
    await expect(price).toHaveValue('0.50');

    await price.fill('2');
    await page.getByRole('textbox', { name: words.email, exact: true }).fill(uniqueEmail('pwyw-nojs'));
    await page.getByLabel(words.name).fill('Deniz Kaya');
    await page.getByRole('checkbox', { name: words.terms }).check();
    await page.getByRole('checkbox', { name: words.waive }).check();
    await page.getByRole('button', { name: words.proceed }).click();
    await expect(page).toHaveURL(/\/en\/checkout\/demo\/demo_/);
    await expect(page.getByRole('button', { name: words.pay('$2.00') })).toBeVisible();
  });
});
