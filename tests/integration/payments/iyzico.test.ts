import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { reconcilePaidSessions } from '../../../functions/orders/reconcile.ts';
import { iyzicoProvider } from '../../../functions/payments/iyzico.ts';
import { startFakeIyzico, TEST_CARDS, type FakeIyzico } from '../../support/fake-iyzico.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { makeCourse, uniqueEmail } from '../../support/factories.ts';
import { runScript } from '../../support/run-script.ts';
import { readPdf } from '../../support/pdf-reader.ts';

/** How many times each confirmation path arrives at once: 3 in `npm test`, 50 in `npm run test:sweep`. */
const RACE_WAYS = Number(process.env.IYZICO_RACE_WAYS ?? 3);

let iyzico: FakeIyzico;
let server: TestServer;

beforeAll(async () => {
  iyzico = await startFakeIyzico();
  // This process reconciles and checks credentials itself, against the same fake as the server.
  Object.assign(process.env, iyzico.settings);
  server = await startTestServer(iyzico.settings);
});
afterAll(async () => {
  await server.stop();
  await iyzico.stop();
});

const billing = { name: 'Ayşe', surname: 'Yılmaz', city: 'İstanbul', country: 'Türkiye', address: 'Moda Cad. 1, Kadıköy' };

/** A guest checkout of a lira course, as the checkout island sends it; the order and its fake iyzico form. */
async function checkout(priceMinor = 14_900, identityNumber = '') {
  const course = await makeCourse({ price_minor: priceMinor, currency: 'TRY', language: 'tr' });
  const email = uniqueEmail('iyzico-buyer');
  const response = await new Browser(server).postJson('/api/checkout', {
    courseId: course.id,
    email,
    fullName: 'Ayşe Yılmaz',
    language: 'tr',
    acceptTerms: true,
    waiveWithdrawal: true,
    discountCode: '',
    billing: { ...billing, identityNumber },
  });
  expect(response.status).toBe(200);
  const { redirectUrl } = (await response.json()) as { redirectUrl: string };
  const order = await db().selectFrom('purchases').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  return { course, email, order, token: order.payment_id!, redirectUrl };
}

/** The buyer's browser posting the token back from iyzico's page (another site, none of our cookies). */
function callback(token: string, language = 'tr') {
  return fetch(`${server.url}/api/payments/iyzico/callback`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: iyzico.url,
      'sec-fetch-site': 'cross-site',
      'content-type': 'application/x-www-form-urlencoded',
      'accept-language': language,
    },
    body: new URLSearchParams({ token }).toString(),
  });
}

function webhook(notification: { body: string; headers: Record<string, string> }) {
  return fetch(`${server.url}/api/payments/iyzico/webhook`, { method: 'POST', ...notification });
}

const orderOf = (id: string) => db().selectFrom('purchases').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const mailsTo = (email: string) => db().selectFrom('mail_outbox').select('id').where('recipient', '=', email).execute();

describe('iyzico (against a local fake of its API and hosted page)', () => {
  it('fake iyzico: a Turkish buyer pays ₺149 in 3 instalments; the callback fulfils it once and records both prices', async () => {
    const { order, token, redirectUrl, email, course } = await checkout();
    expect(order).toMatchObject({ status: 'pending', provider: 'iyzico', amount_minor: 14_900, currency: 'TRY' });
    expect(order.billing).toMatchObject({ ...billing, identityNumber: '' });
    // The Turkish pre-information form names the buyer's address and who takes the payment.
    const contracts = order.contracts as { preInformation: { markdown: string } };
    expect(contracts.preInformation.markdown).toContain('Moda Cad. 1, Kadıköy, İstanbul, Türkiye');
    expect(contracts.preInformation.markdown).toContain('ödeme hizmeti sağlayıcısı iyzico üzerinden');
    expect(redirectUrl).toBe(`${iyzico.url}/checkout?token=${token}&lang=tr`);
    const initialize = iyzico.requests.find((request) => request.body.basketId === order.id)!;
    expect(initialize.authorized).toBe(true);
    expect(initialize.body).toMatchObject({
      locale: 'tr',
      price: '149.0',
      currency: 'TRY',
      callbackUrl: `${server.url}/api/payments/iyzico/callback`,
      enabledInstallments: [1, 2, 3, 6, 9, 12],
      buyer: { name: 'Ayşe', surname: 'Yılmaz', identityNumber: '11111111111', city: 'İstanbul' },
      basketItems: [{ id: course.id, itemType: 'VIRTUAL', price: '149.0' }],
    });

    expect(iyzico.pay(token, TEST_CARDS.success, 3).html).toContain(`value="${token}"`);
    const back = await callback(token);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${server.url}/tr/checkout/success?session_id=${token}&course_id=${course.id}`);
    const completed = await orderOf(order.id);
    expect(completed).toMatchObject({ status: 'completed', amount_minor: 14_900, paid_minor: 15_571 });
    // The receipt shows the price and what the card was charged with the instalment interest.
    const receipt = await fetch(`${server.url}/api/receipts/${completed.download_token}`);
    const text = (await readPdf(new Uint8Array(await receipt.arrayBuffer()))).pages[0]!.text;
    expect(text).toMatch(/toplam \(TRY\)\s+₺149,00/);
    expect(text).toMatch(/taksit farkı dahil\)\s+₺155,71/);
    // The browser returning twice (a reload) changes nothing; the page is used up at iyzico too.
    expect((await callback(token)).status).toBe(303);
    expect(iyzico.pay(token, TEST_CARDS.success).status).toBe(409);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it(`fake iyzico: callback, webhook and reconcile arriving ${RACE_WAYS} times each at once give one purchase and one mail`, async () => {
    const { order, token, email } = await checkout();
    iyzico.pay(token, TEST_CARDS.success, 1);
    const results = await Promise.all(
      Array.from({ length: RACE_WAYS }, () => [
        callback(token).then((response) => response.status),
        webhook(iyzico.notification(token)).then((response) => response.status),
        reconcilePaidSessions(1).then(() => 'reconciled'),
      ]).flat(),
    );
    expect(results.filter((result) => typeof result === 'number' && result >= 500)).toEqual([]);
    expect(await orderOf(order.id)).toMatchObject({ status: 'completed', paid_minor: 14_900 });
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('fake iyzico: refuses an unsigned or forged notification and a tampered answer, and fulfils nothing', async () => {
    const { order, token, email } = await checkout();
    iyzico.pay(token, TEST_CARDS.success, 1);
    const unsigned = iyzico.notification(token);
    const { 'x-iyz-signature-v3': _signature, ...headers } = unsigned.headers;
    expect((await webhook({ body: unsigned.body, headers })).status).toBe(400);
    expect((await webhook(iyzico.notification(token, { secret: 'not-the-secret' }))).status).toBe(400);
    // Signed, but for another amount: the order's own price decides.
    iyzico.tamper(token, { price: 1, paidPrice: 1 }, { resign: true });
    expect((await webhook(iyzico.notification(token))).status).toBe(200);
    expect((await callback(token)).status).toBe(303);
    // Altered after iyzico signed it.
    iyzico.tamper(token, { paymentStatus: 'SUCCESS' }, { resign: false });
    expect((await callback(token)).status).toBe(303);
    expect((await orderOf(order.id)).status).toBe('pending');
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('fake iyzico: a failed 3-D Secure payment returns to the course with a message; an unknown token is a translated page', async () => {
    const { order, token, course } = await checkout();
    expect(iyzico.pay(token, TEST_CARDS.insufficientFunds).html).toContain('Not sufficient funds');
    iyzico.pay(token, TEST_CARDS.threeDSecureFailure);
    const back = await callback(token);
    expect(back.headers.get('location')).toBe(`${server.url}/tr/courses/${course.id}?payment_failed=true`);
    expect((await orderOf(order.id)).status).toBe('failed');
    const page = await fetch(back.headers.get('location')!);
    expect(await page.text()).toContain('Ödemeniz gerçekleşmedi');

    const unknown = await callback('0b8f3e55-0000-4000-8000-000000000000', 'tr');
    expect(unknown.status).toBe(303);
    const notFound = await fetch(unknown.headers.get('location')!);
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toContain('Sipariş bulunamadı');
  });

  it('fake iyzico: the admin refunds through iyzico (cancel the same day, refund later) and access ends with a credit note', async () => {
    const admin = await signedInBrowser(server, { role: 'admin' });
    const today = await checkout();
    iyzico.pay(today.token, TEST_CARDS.success, 3);
    await callback(today.token);
    const earlier = await checkout();
    iyzico.pay(earlier.token, TEST_CARDS.success, 1);
    await callback(earlier.token);
    // Paid two days ago, at iyzico and in the shop's books.
    iyzico.age(earlier.token, 2);
    await db()
      .updateTable('purchases')
      .set({ completed_at: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000) })
      .where('id', '=', earlier.order.id)
      .execute();
    for (const sale of [today, earlier]) {
      const response = await admin.postJson(`/api/admin/purchases/${sale.order.id}/refund`, {});
      expect(await response.json()).toEqual({ id: sale.order.id, status: 'refunded' });
      const refunded = await orderOf(sale.order.id);
      expect(refunded).toMatchObject({ status: 'refunded' });
      expect(refunded.credit_note_number).toBeGreaterThan(0);
    }
    const paths = iyzico.requests.map((request) => request.path);
    expect(paths.filter((path) => path === '/payment/cancel')).toHaveLength(1);
    expect(iyzico.requests.find((request) => request.path === '/v2/payment/refund')?.body).toMatchObject({
      price: '149.0',
      currency: 'TRY',
    });
  });

  it('fake iyzico: a part (the VAT of a sale) is refunded for exactly its amount even the same day, and a full refund after it returns the rest', async () => {
    // The adapter alone, against the fake: the shop's side of a VAT refund is tested in tests/integration/http/taxes.test.ts.
    const orderId = randomUUID();
    const { reference: token } = await iyzicoProvider.createCheckout({
      orderId,
      courseId: randomUUID(),
      courseTitle: 'Kurs',
      amountMinor: 12_000,
      currency: 'TRY',
      email: uniqueEmail('iyzico-part'),
      language: 'tr',
      clientIp: '127.0.0.1',
      billing: { ...billing, identityNumber: '' },
    });
    iyzico.pay(token, TEST_CARDS.success, 1);
    const paymentReference = iyzico.forms.get(token)!.payment!.paymentId;
    const sale = {
      orderId,
      checkoutReference: token,
      paymentReference,
      amountMinor: 12_000,
      paidMinor: 12_000,
      currency: 'TRY',
      completedAt: new Date(),
    };
    const asked = (path: string) =>
      iyzico.requests.filter((request) => request.path === path && request.body.paymentId === paymentReference);
    expect(await iyzicoProvider.refund({ ...sale, partMinor: 2_000 })).toEqual({ kind: 'refunded' });
    expect(await iyzicoProvider.refund({ ...sale, partsRefundedMinor: 2_000 })).toEqual({ kind: 'refunded' });
    expect(asked('/v2/payment/refund').map((request) => request.body.price)).toEqual(['20.0', '100.0']);
    expect(asked('/payment/cancel')).toEqual([]);
    // Nothing is left: iyzico refuses more, and the adapter says so.
    expect(await iyzicoProvider.refund({ ...sale, partMinor: 1 })).toMatchObject({ kind: 'failed' });
  });

  it('fake iyzico: Admin → Settings → Payments shows the configured providers and who takes each currency', async () => {
    const admin = await signedInBrowser(server, { role: 'admin' });
    const shown = (await (await admin.json('GET', '/api/admin/payment-choices')).json()) as Record<string, unknown>;
    expect(shown).toMatchObject({
      providers: [
        { name: 'stripe', configured: false },
        { name: 'iyzico', configured: true },
      ],
      takenBy: { TRY: 'iyzico', USD: 'iyzico', EUR: 'iyzico' },
    });
    expect((await admin.json('PUT', '/api/admin/payment-choices', { TRY: 'paypal', USD: '', EUR: '' })).status).toBe(400);
    const saved = await admin.json('PUT', '/api/admin/payment-choices', { TRY: 'iyzico', USD: 'stripe', EUR: '' });
    // Stripe is chosen for dollars but has no keys here: the first configured provider takes them meanwhile.
    expect(await saved.json()).toMatchObject({ choices: { TRY: 'iyzico', USD: 'stripe' }, takenBy: { USD: 'iyzico' } });
    const page = await (await admin.request('/tr/admin/settings')).text();
    expect(page).toContain('Ödemeler');
    // The legal texts name the provider that takes the money here, not one the shop does not use.
    for (const path of ['/tr/privacy', '/en/terms', '/tr/refund']) {
      const legal = await (await server.fetch(path)).text();
      expect(legal, path).toContain('iyzico');
      expect(legal, path).not.toContain('Stripe');
    }
  });

  it('fake iyzico: the credentials are checked for real, and a wrong secret is refused (doctor)', async () => {
    expect(await iyzicoProvider.check()).toMatchObject({ status: 'ok', detail: 'doctor.iyzicoOk', params: { mode: 'live' } });
    const { output } = await runScript('functions/cli/doctor.ts', [], {
      ENV_FILE: '',
      NODE_ENV: 'development',
      PUBLIC_SITE_URL: server.url,
      ...iyzico.settings,
      IYZICO_SECRET_KEY: 'sandbox-not-the-secret',
    });
    expect(output).toMatch(/✗ Payments \(iyzico\): iyzico live at .* refuses IYZICO_API_KEY and IYZICO_SECRET_KEY/);
  }, 30_000);
});
