import { DEMO, expect, test, uniqueEmail, waitForIslands, type APIRequestContext, type Page } from './fixtures.ts';

/**
 * The next course after a purchase: the seller offers "Kavgasız Ekran Süresi" (US$3.99, nobody else's
 * test changes it) to buyers of "Value-Based Pricing for Freelancers", 20 % off for 48 hours. The
 * demo prices were never lower in the last 30 days, so that is the price shown before.
 */
const BOUGHT = 'Value-Based Pricing for Freelancers';
const OFFERED = 'Kavgasız Ekran Süresi';

async function courseId(request: APIRequestContext, title: string, language: 'en' | 'tr'): Promise<string> {
  const found = (await (await request.get(`/api/courses?language=${language}&search=${encodeURIComponent(title)}`)).json()) as {
    courses: { id: string; title: string }[];
  };
  return found.courses.find((course) => course.title.startsWith(title))!.id;
}

/** A guest buys a course through the demo provider, from its checkout page to the success page. */
async function buyAsGuest(page: Page, email: string, payLabel: string) {
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByLabel('Full name').fill('Deniz Kaya');
  await page.getByRole('checkbox', { name: 'I agree to the Terms of service.' }).check();
  await page.getByRole('checkbox', { name: /I ask for immediate access/ }).check();
  await page.getByRole('button', { name: 'Proceed to payment' }).click();
  await expect(page).toHaveURL(/\/en\/checkout\/demo\/demo_/);
  await page.getByRole('button', { name: payLabel }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful!' })).toBeVisible();
}

test('the seller sets the offer; after buying, the success page offers the next course at its one-time price, and the checkout charges it (en)', async ({
  page,
  browser,
  baseURL,
  signIn,
}) => {
  const [bought, offered] = [await courseId(page.request, BOUGHT, 'en'), await courseId(page.request, OFFERED, 'tr')];
  await signIn(DEMO.admin);
  await page.goto('/en/admin/courses');
  await waitForIslands(page);
  await page.getByRole('searchbox', { name: 'Search courses' }).fill(BOUGHT);
  await page.getByRole('row').filter({ hasText: BOUGHT }).getByRole('button', { name: /^Edit/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await dialog.getByLabel('Course offered next').selectOption({ label: `${OFFERED}: 6-12 Yaş İçin Aile Medya Planı` });
  await dialog.getByLabel('One-time discount (%)').fill('20');
  await dialog.getByLabel('Ends after (hours)').fill('48');
  await dialog.getByRole('button', { name: 'Save offer' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Offer saved.' })).toBeVisible();

  // A guest, in a browser of their own.
  const guest = await (await browser.newContext({ baseURL: baseURL! })).newPage();
  const email = uniqueEmail('next-course');
  await guest.goto(`/en/checkout/${bought}`);
  await waitForIslands(guest);
  await buyAsGuest(guest, email, 'Pay $9.00');
  const offer = guest.getByRole('region', { name: 'Next, you may like' });
  await expect(offer).toContainText(OFFERED);
  await expect(offer).toContainText('$3.19');
  await expect(offer).toContainText('20% off');
  await expect(offer).toContainText('Lowest price in the last 30 days: $3.99');
  await expect(offer).toContainText(/A one-time price for this order, until .+ \(UTC\)\./);

  await offer.getByRole('link', { name: 'Buy it for $3.19' }).click();
  await expect(guest).toHaveURL(new RegExp(`/en/checkout/${offered}\\?code=NEXT-[0-9A-F]{16}$`));
  const code = new URL(guest.url()).searchParams.get('code')!;
  await expect(guest.getByText(`Code ${code} applied: $0.80 off.`)).toBeVisible();
  await waitForIslands(guest);
  await buyAsGuest(guest, email, 'Pay $3.19');
  // One use: the link does not give the price again.
  await guest.goto(`/en/checkout/${offered}?code=${code}`);
  await expect(guest.getByText('This code has been used up.')).toBeVisible();
  await guest.context().close();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the offer in Turkish: its words, and its link opens the Turkish checkout with the code applied, without JavaScript (tr)', async ({
    page,
    browser,
    baseURL,
  }) => {
    const [bought, offered] = [await courseId(page.request, BOUGHT, 'en'), await courseId(page.request, OFFERED, 'tr')];
    const admin = await browser.newContext({ baseURL: baseURL!, extraHTTPHeaders: { origin: baseURL! } });
    expect((await admin.request.post('/api/auth/sign-in/email', { data: DEMO.admin })).ok()).toBe(true);
    const saved = await admin.request.put(`/api/admin/courses/${bought}/offer`, {
      data: { offeredCourseId: offered, discountPercent: '20', discountHours: '48' },
    });
    expect(saved.status()).toBe(200);
    await admin.close();

    const headers = { origin: baseURL! };
    const checkout = await page.request.post('/api/checkout', {
      headers,
      data: {
        courseId: bought,
        email: uniqueEmail('sonraki-kurs'),
        fullName: 'Deniz Kaya',
        language: 'tr',
        acceptTerms: true,
        waiveWithdrawal: true,
      },
    });
    expect(checkout.status()).toBe(200);
    const paymentId = new URL((await checkout.json()).redirectUrl as string, baseURL).pathname.split('/').pop()!;
    expect((await page.request.post(`/api/checkout/demo/${paymentId}`, { headers })).status()).toBe(200);

    await page.goto(`/tr/checkout/success?session_id=${paymentId}`);
    const offer = page.getByRole('region', { name: 'Sıradaki kursunuz olabilir' });
    await expect(offer).toContainText('$3,19');
    await expect(offer).toContainText('%20 indirim');
    await expect(offer).toContainText('Son 30 gündeki en düşük fiyat: $3,99');
    await offer.getByRole('link', { name: '$3,19 karşılığında satın al' }).click();
    await expect(page).toHaveURL(new RegExp(`/tr/checkout/${offered}\\?code=NEXT-`));
    await expect(page.getByText(/^NEXT-[0-9A-F]{16} kodu uygulandı/)).toBeVisible();
  });
});
