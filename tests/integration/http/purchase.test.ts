import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { storageRoot } from '../../../functions/storage/storage.ts';
import { orderReference } from '../../../functions/orders/orders.ts';
import { readPdf } from '../../support/pdf-reader.ts';
import { Browser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { plainText, startSmtpServer } from '../../support/smtp.ts';
import { WEBHOOK_SECRET, signedEvent, startFakeStripe } from '../../support/fake-stripe.ts';
import { uniqueEmail } from '../../support/factories.ts';
import { describeImport } from '../../support/import-cases.ts';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let freeCourse: { id: string; pdf_path: string | null; title: string };
let paidCourse: { id: string; price_minor: number; currency: string; title: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  stripe = await startFakeStripe();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    ...stripe.settings,
  });
  // The server seeded the demo catalogue into this file's database on start.
  freeCourse = await db()
    .selectFrom('courses')
    .select(['id', 'pdf_path', 'title'])
    .where('price_minor', '=', 0)
    .where('language', '=', 'tr')
    .executeTakeFirstOrThrow();
  paidCourse = await db()
    .selectFrom('courses')
    .select(['id', 'price_minor', 'currency', 'title'])
    .where('currency', '=', 'EUR')
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await server.stop();
  await stripe.stop();
  await smtp.stop();
});

const checkout = (browser: Browser, courseId: string, email: string, language = 'en', boxes: { sendNews?: boolean } = {}) =>
  browser.postJson('/api/checkout', {
    acceptTerms: true,
    waiveWithdrawal: true,
    courseId,
    email,
    fullName: 'Deniz Kaya',
    language,
    ...boxes,
  });
const deliver = (event: ReturnType<typeof signedEvent>, signature = event.signature) =>
  server.fetch('/api/stripe/webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: event.payload,
  });

async function startPaidOrder(email = uniqueEmail('payer')) {
  const response = await checkout(new Browser(server), paidCourse.id, email);
  expect(response.status).toBe(200);
  const { redirectUrl } = (await response.json()) as { redirectUrl: string };
  const sessionId = redirectUrl.split('/').pop()!;
  const order = await db().selectFrom('purchases').selectAll().where('payment_id', '=', sessionId).executeTakeFirstOrThrow();
  return { sessionId, order, email };
}

function completedEvent(
  sessionId: string,
  orderId: string,
  paymentIntent: string,
  type = 'checkout.session.completed',
  id = `evt_${randomUUID()}`,
) {
  return signedEvent({
    id,
    type,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        payment_status: 'paid',
        amount_total: paidCourse.price_minor,
        currency: paidCourse.currency.toLowerCase(),
        metadata: { order_id: orderId },
        payment_intent: paymentIntent,
      },
    },
  });
}

/** Rows of a table whose columns equal the given values. */
async function countRows(
  table: 'purchases' | 'payment_events' | 'mail_outbox' | 'subscribers',
  equal: Record<string, string> = {},
) {
  const conditions = Object.entries(equal).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} ${where}`.execute(db());
  return rows[0]!.n;
}

/** Where a download that cannot start sends the browser: the page that says why (`reason`). */
function problemOf(response: Response): string | null {
  if (response.status !== 303) return null;
  const location = new URL(response.headers.get('location')!, server.url);
  expect(location.pathname).toMatch(/^\/(en|tr)\/downloads\/unavailable$/);
  return location.searchParams.get('reason');
}

async function downloadViaLink(link: string) {
  const first = await server.fetch(new URL(link).pathname);
  if (first.status !== 302) return { status: first.status, problem: problemOf(first), bytes: undefined };
  const file = await server.fetch(first.headers.get('location')!);
  return { status: file.status, headers: file.headers, bytes: Buffer.from(await file.arrayBuffer()) };
}

describe('free enrolment', () => {
  it('creates the account silently, records one completed purchase, mails a link that downloads the real PDF', async () => {
    const email = uniqueEmail('guest');
    const response = await checkout(new Browser(server), freeCourse.id, email, 'tr');
    expect(response.status).toBe(200);
    const { redirectUrl } = await response.json();
    expect(redirectUrl).toMatch(/\/tr\/checkout\/success\?session_id=free_\d+_[0-9a-f-]{36}&course_id=/);

    const user = await db()
      .selectFrom('users')
      .select(['id', 'full_name', 'language'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ full_name: 'Deniz Kaya', language: 'tr' });
    const purchase = await db().selectFrom('purchases').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(purchase).toMatchObject({ status: 'completed', amount_minor: 0, provider: 'free' });
    expect(purchase.payment_id).toMatch(/^free_/);

    // The same address again, anonymously: no "already owned" to a stranger; the owner is mailed their link.
    const again = await checkout(new Browser(server), freeCourse.id, email, 'tr');
    expect(again.status).toBe(200);
    expect((await again.json()).redirectUrl).toBe('/tr/checkout/sent');
    expect(await countRows('purchases', { user_id: user.id })).toBe(1);
    expect(await countRows('mail_outbox', { recipient: email, kind: 'course-materials' })).toBe(2);

    const mail = await smtp.waitFor((message) => message.to.includes(email));
    const text = plainText(mail.raw);
    expect(text).toContain(freeCourse.title);
    const link = text.match(/https?:\/\/\S+\/api\/downloads\/[\w-]+/)![0];
    const download = await downloadViaLink(link);
    expect(download.status).toBe(200);
    expect(download.headers!.get('content-type')).toBe('application/pdf');
    expect(download.headers!.get('content-disposition')).toMatch(/^attachment; filename=".+\.pdf"; filename\*=UTF-8''/);
    expect(download.headers!.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers!.get('cache-control')).toBe('private, no-store');
    // The course's own PDF, stamped in the order's language with the buyer's name, address and order on every page.
    const original = await readPdf(await readFile(path.join(storageRoot(), 'private', freeCourse.pdf_path!)));
    const stamped = await readPdf(download.bytes!);
    expect(stamped.pages.map((page) => page.text.replace(/\s*Lisans sahibi: .*$/, '').trim())).toEqual(
      original.pages.map((page) => page.text.trim()),
    );
    for (const page of stamped.pages)
      expect(page.text).toContain(`Lisans sahibi: Deniz Kaya ${email} · sipariş ${orderReference(purchase.id)}`);
    expect(stamped.info).toMatchObject({ Title: original.info.Title, Custom: { OrderReference: orderReference(purchase.id) } });
    const counted = await db()
      .selectFrom('purchases')
      .select(['download_count', 'last_download_at'])
      .where('id', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(counted.download_count).toBe(1);
    expect(counted.last_download_at).not.toBeNull();
  });

  it('asks a buyer who ticked "send me news" to confirm, in the order’s language and with the box’s wording; an unticked box records nothing', async () => {
    const ticked = uniqueEmail('news');
    expect((await checkout(new Browser(server), freeCourse.id, ticked, 'tr', { sendNews: true })).status).toBe(200);
    const consent = await db()
      .selectFrom('subscriber_consents')
      .innerJoin('subscribers', 'subscribers.id', 'subscriber_consents.subscriber_id')
      .select(['subscribers.status', 'action', 'wording_key', 'source', 'page', 'language', 'subscriber_consents.confirmed_at'])
      .where('subscribers.email', '=', ticked)
      .executeTakeFirstOrThrow();
    expect(consent).toMatchObject({
      status: 'pending',
      action: 'grant',
      wording_key: 'audience.consentCheckout',
      source: 'checkout',
      page: `/tr/checkout/${freeCourse.id}`,
      language: 'tr',
      confirmed_at: null,
    });
    expect(await countRows('mail_outbox', { recipient: ticked, kind: 'subscription-confirm' })).toBe(1);

    const unticked = uniqueEmail('no-news');
    expect((await checkout(new Browser(server), freeCourse.id, unticked)).status).toBe(200);
    expect(await countRows('subscribers', { email: unticked })).toBe(0);
    expect(await countRows('mail_outbox', { recipient: unticked, kind: 'course-materials' })).toBe(1);
  });

  it('lets a silently created buyer set a password with "forgot password" and sign in', async () => {
    const email = uniqueEmail('silent');
    await checkout(new Browser(server), freeCourse.id, email, 'tr');
    const browser = new Browser(server);
    expect((await browser.postJson('/api/auth/sign-in/email', { email, password: 'anything at all' })).status).toBe(401);
    await browser.postJson('/api/auth/request-password-reset', { email });
    const reset = await smtp.waitFor(
      (message) => message.to.includes(email) && plainText(message.raw).includes('reset-password?token='),
    );
    const token = plainText(reset.raw).match(/reset-password\?token=([\w-]+)/)![1]!;
    expect(
      (
        await browser.postJson('/api/password-reset', {
          token,
          password: 'my own password 1',
          confirmPassword: 'my own password 1',
        })
      ).status,
    ).toBe(200);
    expect((await browser.request('/tr/dashboard/courses')).status).toBe(200);
    expect((await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'my own password 1' })).status).toBe(
      200,
    );
  });

  it('refuses missing or invalid details with the field messages and records nothing', async () => {
    const before = await countRows('purchases');
    for (const body of [
      { courseId: freeCourse.id, email: '', fullName: '', language: 'en' },
      { courseId: freeCourse.id, email: 'nope', fullName: 'A', language: 'en' },
      { courseId: 'x', email: 'a@b.co', fullName: 'Ab', language: 'en' },
      { amountMinor: 0 },
    ]) {
      const response = await new Browser(server).postJson('/api/checkout', body);
      expect(response.status).toBe(400);
    }
    const invalid = await (
      await new Browser(server).postJson('/api/checkout', {
        acceptTerms: true,
        waiveWithdrawal: true,
        courseId: freeCourse.id,
        email: 'nope',
        fullName: 'A',
        language: 'en',
      })
    ).json();
    expect(invalid.error.fields).toEqual({ email: 'validation.emailInvalid', fullName: 'validation.fullNameMin' });
    expect(await countRows('purchases')).toBe(before);
  });
});

describe('pay what you want (paid orders against the local Stripe fake)', () => {
  /** The demo's pay-what-you-want course (suggested US$3.99), made "free, or pay what you like": minimum 0. */
  const pwywCourse = async () => {
    const course = await db()
      .updateTable('courses')
      .set({ minimum_price_minor: 0 })
      .where('minimum_price_minor', 'is not', null)
      .returning(['id', 'price_minor', 'currency'])
      .executeTakeFirstOrThrow();
    expect(course).toMatchObject({ price_minor: 399, currency: 'USD' });
    return course;
  };
  const named = (courseId: string, email: string, price?: string, extra: Record<string, unknown> = {}) =>
    new Browser(server).postJson('/api/checkout', {
      acceptTerms: true,
      waiveWithdrawal: true,
      courseId,
      email,
      fullName: 'Deniz Kaya',
      language: 'en',
      ...(price === undefined ? {} : { price }),
      ...extra,
    });
  const orderOf = (email: string) =>
    db()
      .selectFrom('purchases')
      .select(['status', 'provider', 'amount_minor', 'discount_minor'])
      .where('email', '=', email)
      .execute();

  it('refuses a price below the minimum, the charge minimum, above the maximum or past the cents, and records nothing', async () => {
    const course = await pwywCourse();
    await db().updateTable('courses').set({ minimum_price_minor: 200 }).where('id', '=', course.id).execute();
    for (const [price, message] of [
      ['1.99', 'checkout.namedPrice.belowMinimum'],
      ['100000.01', 'checkout.namedPrice.tooHigh'],
      ['2.001', 'checkout.namedPrice.invalid'],
      ['-3', 'checkout.namedPrice.invalid'],
    ] as const) {
      const email = uniqueEmail('pwyw-refused');
      const response = await named(course.id, email, price);
      expect(response.status, price).toBe(400);
      expect((await response.json()).error.fields, price).toEqual({ price: message });
      expect(await orderOf(email)).toEqual([]);
    }
    await pwywCourse();
    const belowCharge = await named(course.id, uniqueEmail('pwyw-cents'), '0.20');
    expect((await belowCharge.json()).error.fields).toEqual({ price: 'checkout.namedPrice.belowChargeMinimum' });
  });

  it('enrols for free at 0, charges what the buyer named above it (through a code), and the suggestion when none is named', async () => {
    const course = await pwywCourse();
    const free = uniqueEmail('pwyw-free');
    const enrolled = await named(course.id, free, '0');
    expect((await enrolled.json()).redirectUrl).toMatch(/\/en\/checkout\/success\?session_id=free_/);
    expect(await orderOf(free)).toEqual([{ status: 'completed', provider: 'free', amount_minor: 0, discount_minor: 0 }]);

    await db().insertInto('discount_codes').values({ code: 'PWYWHALF', kind: 'percent', percent: 50 }).execute();
    const quote = await new Browser(server).postJson('/api/checkout/quote', {
      courseId: course.id,
      language: 'en',
      discountCode: 'pwywhalf',
      price: '12,50',
    });
    expect(await quote.json()).toMatchObject({ listMinor: 1250, discountMinor: 625, totalMinor: 625 });
    const paid = uniqueEmail('pwyw-paid');
    expect((await named(course.id, paid, '12,50', { discountCode: 'PWYWHALF' })).status).toBe(200);
    expect(await orderOf(paid)).toEqual([{ status: 'pending', provider: 'stripe', amount_minor: 625, discount_minor: 625 }]);
    const session = stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(session.body.get('line_items[0][price_data][unit_amount]')).toBe('625');

    const suggested = uniqueEmail('pwyw-suggested');
    expect((await named(course.id, suggested)).status).toBe(200);
    expect(await orderOf(suggested)).toMatchObject([{ status: 'pending', amount_minor: course.price_minor }]);
  });
});

describe('paid checkout with Stripe (against a local HTTP fake of the Stripe API)', () => {
  it('records a pending order and creates a Checkout Session from database prices, in the buyer language', async () => {
    const { sessionId, order } = await startPaidOrder();
    expect(order).toMatchObject({ status: 'pending', provider: 'stripe', amount_minor: paidCourse.price_minor, currency: 'EUR' });
    const request = stripe.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.body.get('metadata[order_id]') === order.id,
    )!;
    expect(request.body.get('line_items[0][price_data][unit_amount]')).toBe(String(paidCourse.price_minor));
    expect(request.body.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(request.body.get('line_items[0][price_data][product_data][name]')).toBe(paidCourse.title);
    expect(request.body.get('locale')).toBe('en');
    expect(request.body.get('customer_email')).toBe(order.email);
    expect(request.body.get('success_url')).toBe(
      `${server.url}/en/checkout/success?session_id={CHECKOUT_SESSION_ID}&course_id=${paidCourse.id}`,
    );
    expect(request.body.get('cancel_url')).toBe(`${server.url}/en/courses/${paidCourse.id}?canceled=true`);
    expect(request.headers['idempotency-key']).toBe(`checkout-session-${order.id}`);
    const page = await server.fetch(`/en/checkout/success?session_id=${sessionId}&course_id=${paidCourse.id}`);
    expect(await page.text()).toContain('Confirming your payment');
  });

  it('rejects forged, altered and stale webhooks with 400 and writes nothing', async () => {
    const { sessionId, order } = await startPaidOrder();
    const eventsBefore = await countRows('payment_events');
    const event = completedEvent(sessionId, order.id, 'pi_forged');
    const stale = signedEvent(JSON.parse(event.payload), WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 60 * 60);
    const cases = [
      [
        'missing signature',
        await server.fetch('/api/stripe/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: event.payload,
        }),
      ],
      ['malformed signature', await deliver(event, 'not-a-signature')],
      ['wrong secret', await deliver(signedEvent(JSON.parse(event.payload), 'whsec_wrong'))],
      ['altered body', await deliver({ payload: event.payload.replace('"paid"', '"paid" '), signature: event.signature })],
      ['stale timestamp', await deliver(stale)],
    ] as const;
    for (const [name, response] of cases) expect(response.status, name).toBe(400);
    expect(
      (await db().selectFrom('purchases').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status,
    ).toBe('pending');
    expect(await countRows('payment_events')).toBe(eventsBefore);
  });

  it('fulfils the same event delivered 50 times at once exactly once', async () => {
    const { sessionId, order, email } = await startPaidOrder();
    const paymentIntent = stripe.pay(sessionId, order.id);
    const event = completedEvent(sessionId, order.id, paymentIntent);
    const responses = await Promise.all(Array.from({ length: 50 }, () => deliver(event)));
    expect(responses.map((r) => r.status).every((status) => status >= 200 && status < 300)).toBe(true);
    expect(await countRows('purchases', { id: order.id, status: 'completed' })).toBe(1);
    expect(await countRows('mail_outbox', { recipient: email, kind: 'course-materials' })).toBe(1);
    expect(await countRows('payment_events', { purchase_id: order.id })).toBe(1);
    const page = await server.fetch(`/en/checkout/success?session_id=${sessionId}&course_id=${paidCourse.id}`);
    expect(await page.text()).toContain('Payment successful!');
  });

  it('completes once when two different events report the same session', async () => {
    const { sessionId, order, email } = await startPaidOrder();
    const paymentIntent = stripe.pay(sessionId, order.id);
    expect((await deliver(completedEvent(sessionId, order.id, paymentIntent))).status).toBe(200);
    expect(
      (await deliver(completedEvent(sessionId, order.id, paymentIntent, 'checkout.session.async_payment_succeeded'))).status,
    ).toBe(200);
    expect(await countRows('mail_outbox', { recipient: email, kind: 'course-materials' })).toBe(1);
  });

  it('revokes access on refund and dispute: the download link then answers 404', async () => {
    const { sessionId, order } = await startPaidOrder();
    const paymentIntent = stripe.pay(sessionId, order.id);
    await deliver(completedEvent(sessionId, order.id, paymentIntent));
    const { download_token } = await db()
      .selectFrom('purchases')
      .select('download_token')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect((await downloadViaLink(`${server.url}/api/downloads/${download_token}`)).status).toBe(200);
    // The charge carries no metadata: the order is found through the PaymentIntent (fetched from Stripe).
    const refund = signedEvent({
      id: `evt_${randomUUID()}`,
      type: 'charge.refunded',
      data: { object: { id: 'ch_1', object: 'charge', refunded: true, payment_intent: paymentIntent, metadata: {} } },
    });
    expect((await deliver(refund)).status).toBe(200);
    expect(
      (await db().selectFrom('purchases').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status,
    ).toBe('refunded');
    expect((await downloadViaLink(`${server.url}/api/downloads/${download_token}`)).problem).toBe('revoked');
    // A late completion event never gives access back.
    await deliver(completedEvent(sessionId, order.id, paymentIntent, 'checkout.session.async_payment_succeeded'));
    expect(
      (await db().selectFrom('purchases').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status,
    ).toBe('refunded');

    const second = await startPaidOrder();
    const secondIntent = stripe.pay(second.sessionId, second.order.id);
    await deliver(completedEvent(second.sessionId, second.order.id, secondIntent));
    const dispute = signedEvent({
      id: `evt_${randomUUID()}`,
      type: 'charge.dispute.created',
      data: { object: { id: 'dp_1', object: 'dispute', payment_intent: secondIntent, metadata: {} } },
    });
    expect((await deliver(dispute)).status).toBe(200);
    expect(
      (await db().selectFrom('purchases').select('status').where('id', '=', second.order.id).executeTakeFirstOrThrow()).status,
    ).toBe('disputed');
  });

  it('closes expired sessions and acknowledges events it does not act on', async () => {
    const { sessionId, order } = await startPaidOrder();
    const expired = signedEvent({
      id: `evt_${randomUUID()}`,
      type: 'checkout.session.expired',
      data: { object: { id: sessionId, object: 'checkout.session', metadata: { order_id: order.id } } },
    });
    expect((await deliver(expired)).status).toBe(200);
    expect(
      (await db().selectFrom('purchases').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status,
    ).toBe('expired');
    const other = signedEvent({
      id: `evt_${randomUUID()}`,
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    const response = await deliver(other);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: 'ignored' });
  });

  it('answers 5xx when the database fails mid-fulfilment, leaves nothing half-written, and completes on redelivery', async () => {
    const { sessionId, order, email } = await startPaidOrder();
    const paymentIntent = stripe.pay(sessionId, order.id);
    await sql`CREATE FUNCTION fail_mail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full (simulated)'; END $$`.execute(
      db(),
    );
    await sql`CREATE TRIGGER fail_mail BEFORE INSERT ON mail_outbox FOR EACH ROW EXECUTE FUNCTION fail_mail()`.execute(db());
    const event = completedEvent(sessionId, order.id, paymentIntent);
    try {
      expect((await deliver(event)).status).toBe(500);
      const after = await db()
        .selectFrom('purchases')
        .select(['status', 'download_token'])
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ status: 'pending', download_token: null });
      expect(await countRows('payment_events', { purchase_id: order.id })).toBe(0);
    } finally {
      await sql`DROP TRIGGER fail_mail ON mail_outbox; DROP FUNCTION fail_mail()`.execute(db());
    }
    expect((await deliver(event)).status).toBe(200);
    expect(
      (await db().selectFrom('purchases').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status,
    ).toBe('completed');
    expect(await countRows('mail_outbox', { recipient: email })).toBe(1);
  });
});

describe('downloads', () => {
  async function buyerWithFreeCourse() {
    const browser = new Browser(server);
    const email = uniqueEmail('owner');
    await browser.postJson('/api/auth/sign-up/email', { name: 'Owner', email, password: 'owner password 1' });
    await checkout(browser, freeCourse.id, email);
    const purchase = await db()
      .selectFrom('purchases')
      .innerJoin('users', 'users.id', 'purchases.user_id')
      .select('purchases.id')
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    return { browser, purchaseId: purchase.id };
  }

  it("never serves another user's purchase, an unsigned or an expired file URL", async () => {
    const owner = await buyerWithFreeCourse();
    const stranger = await buyerWithFreeCourse();
    const button = `/api/account/purchases/${owner.purchaseId}/download`;
    const asJson = { headers: { Accept: 'application/json' } };
    // The dashboard's script asks for JSON; a plain navigation gets the page that says why.
    expect((await stranger.browser.request(button, asJson)).status).toBe(404);
    expect(problemOf(await stranger.browser.request(button))).toBe('unknown');
    expect((await new Browser(server).request(button, asJson)).status).toBe(401);
    expect((await new Browser(server).request(button)).status).toBe(401);
    const followedLink = await new Browser(server).request(button, { headers: { Accept: 'text/html' } });
    expect(problemOf(followedLink)).toBe('signed_out');
    expect(problemOf(await server.fetch(`/api/files/${owner.purchaseId}`))).toBe('expired');
    expect(problemOf(await server.fetch(`/api/files/${owner.purchaseId}?expires=${Date.now() - 1000}&signature=abc`))).toBe(
      'expired',
    );
    const signed = (await owner.browser.request(button)).headers.get('location')!;
    expect(await (await owner.browser.request(button, asJson)).json()).toMatchObject({
      url: expect.stringMatching(/^\/api\/files\//),
    });
    expect(problemOf(await server.fetch(signed.replace(owner.purchaseId, stranger.purchaseId)))).toBe('expired');
    expect((await server.fetch(signed)).status).toBe(200);
  });

  it('counts 20 concurrent downloads exactly and serves identical bytes each time', async () => {
    const owner = await buyerWithFreeCourse();
    const signed = (await owner.browser.request(`/api/account/purchases/${owner.purchaseId}/download`)).headers.get('location')!;
    const files = await Promise.all(
      Array.from({ length: 20 }, async () => Buffer.from(await (await server.fetch(signed)).arrayBuffer())),
    );
    // The first downloads stamp the copy once; every answer is that same copy.
    expect(files.every((file) => file.equals(files[0]!))).toBe(true);
    const read = await readPdf(files[0]!);
    for (const page of read.pages) expect(page.text).toContain(`· order ${orderReference(owner.purchaseId)}`);
    const original = await readFile(path.join(storageRoot(), 'private', freeCourse.pdf_path!));
    expect(files[0]!.equals(original)).toBe(false);
    const { download_count } = await db()
      .selectFrom('purchases')
      .select('download_count')
      .where('id', '=', owner.purchaseId)
      .executeTakeFirstOrThrow();
    expect(download_count).toBe(20);
  });
});

describe('importing buyers from Gumroad, Payhip and Lemon Squeezy', () => describeImport(() => ({ server, smtp })));
