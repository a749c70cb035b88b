import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { closeOrder, fulfilPayment, revokePurchase } from '../../../functions/orders/fulfilment.ts';
import { includedTax } from '../../../functions/orders/receipts.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { plainText, startSmtpServer } from '../../support/smtp.ts';
import { deliverPaid, startFakeStripe } from '../../support/fake-stripe.ts';
import { makePurchase } from '../../support/factories.ts';
import { statementsOf } from '../../support/statements.ts';
import { startCheckout } from '../../../functions/orders/checkout.ts';
import { CheckoutRequestSchema } from '../../../src/lib/checkout.schema.ts';
import { LIMITS } from '../../../functions/limits/limits.ts';
import { shopSettings } from '../../../functions/shop/settings.ts';
import { taxSettings } from '../../../functions/taxes/settings.ts';
import { forgetSettings } from '../../../functions/shop/settings-cache.ts';

/**
 * What happens around money, over HTTP on the built shop and on real PostgreSQL: lawful checkout,
 * numbered receipts and credit notes, discount codes. The Stripe API is a local fake (the edge of
 * the network we cannot reach); mail goes through a real SMTP server.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let admin: Browser;
let courses: Record<'eur' | 'try' | 'usd', { id: string; price_minor: number; currency: string; title: string }>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  stripe = await startFakeStripe();
  // The same keys in this process too: some cases call the use cases themselves.
  Object.assign(process.env, stripe.settings);
  server = await startTestServer({ SMTP_URL: smtp.url, ...stripe.settings });
  admin = await signedInBrowser(server, { role: 'admin' });
  const paid = (currency: string) =>
    db()
      .selectFrom('courses')
      .select(['id', 'price_minor', 'currency', 'title'])
      .where('currency', '=', currency)
      .where('price_minor', '>', 0)
      .orderBy('price_minor', 'desc')
      .executeTakeFirstOrThrow();
  courses = { eur: await paid('EUR'), try: await paid('TRY'), usd: await paid('USD') };
});
afterAll(async () => {
  await server.stop();
  await stripe.stop();
  await smtp.stop();
});

const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const agreed = { acceptTerms: true, waiveWithdrawal: true };

function checkout(course: { id: string }, body: Record<string, unknown> = {}, browser = new Browser(server)) {
  return browser.postJson('/api/checkout', {
    ...agreed,
    courseId: course.id,
    email: email('buyer'),
    fullName: 'Deniz Kaya',
    language: 'en',
    ...body,
  });
}

async function orderOf(response: Response) {
  const { redirectUrl } = (await response.json()) as { redirectUrl: string };
  const sessionId = new URL(redirectUrl, server.url).pathname.split('/').pop()!;
  return db().selectFrom('purchases').selectAll().where('payment_id', '=', sessionId).executeTakeFirstOrThrow();
}

async function pay(order: { id: string; payment_id: string | null; amount_minor: number; currency: string }) {
  expect((await deliverPaid(server, order)).status).toBe(200);
  return db().selectFrom('purchases').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
}

async function createCode(body: Record<string, unknown>) {
  const response = await admin.postJson('/api/admin/discounts', {
    kind: 'percent',
    percent: '10',
    allCourses: true,
    active: true,
    ...body,
  });
  return {
    status: response.status,
    json: (await response.json()) as { id: string; error?: { fields?: Record<string, string> } },
  };
}

describe('lawful checkout', () => {
  it('refuses a paid order without the Terms or the immediate-access request, field by field, and records nothing', async () => {
    const buyer = email('hasty');
    const noTerms = await checkout(courses.eur, { acceptTerms: false, email: buyer });
    expect(noTerms.status).toBe(400);
    expect(((await noTerms.json()) as { error: { fields: object } }).error.fields).toEqual({
      acceptTerms: 'checkout.termsRequired',
    });
    const noWaiver = await checkout(courses.eur, { waiveWithdrawal: false, email: buyer });
    expect(noWaiver.status).toBe(400);
    expect(((await noWaiver.json()) as { error: { fields: object } }).error.fields).toEqual({
      waiveWithdrawal: 'checkout.withdrawalRequired',
    });
    const rows = await db().selectFrom('purchases').select('id').where('email', '=', buyer).execute();
    expect(rows).toEqual([]);
    expect(await db().selectFrom('users').select('id').where('email', '=', buyer).executeTakeFirst()).toBeUndefined();
  });

  it('a free enrolment needs only the Terms', async () => {
    const free = await db().selectFrom('courses').select('id').where('price_minor', '=', 0).executeTakeFirstOrThrow();
    expect((await checkout(free, { waiveWithdrawal: false })).status).toBe(200);
    expect((await checkout(free, { acceptTerms: false })).status).toBe(400);
  });

  it('records what the buyer agreed to: the wording of each box, the Terms version, the time and the client address', async () => {
    const browser = new Browser(server);
    const order = await orderOf(await checkout(courses.eur, {}, browser));
    const consent = order.consent as Record<string, unknown>;
    expect(consent).toMatchObject({
      terms: { text: 'I agree to the Terms of service.', version: expect.stringMatching(/^[0-9a-f]{12}$/) },
      withdrawal: { text: expect.stringContaining('lose my right of withdrawal') },
      clientIp: browser.address,
      language: 'en',
    });
    expect(Math.abs(Date.parse(consent.at as string) - Date.now())).toBeLessThan(60_000);
    expect(order.contracts).toBeNull();
  });

  it('a Turkish paid order carries the pre-information form and the distance sales contract, filled, and mails them with the receipt link', async () => {
    const buyer = email('ayse');
    const order = await orderOf(await checkout(courses.try, { email: buyer, fullName: 'Ayşe Yılmaz', language: 'tr' }));
    const contracts = order.contracts as Record<string, { markdown: string }>;
    for (const document of [contracts.preInformation!, contracts.distanceContract!]) {
      expect(document.markdown).toContain('Ayşe Yılmaz');
      expect(document.markdown).toContain(buyer);
      expect(document.markdown).toContain(courses.try.title);
      expect(document.markdown).toContain('MicroCourses Demo Ltd');
      expect(document.markdown).not.toMatch(/\{\{/);
    }
    expect((order.consent as { terms: { text: string } }).terms.text).toContain('Mesafeli Satış Sözleşmesi');
    const paid = await pay(order);
    expect(paid.receipt_number).toBeGreaterThan(0);
    const mail = plainText((await smtp.waitFor((message) => message.to.includes(buyer))).raw);
    expect(mail).toContain('Ön Bilgilendirme Formu');
    expect(mail).toContain('Mesafeli Satış Sözleşmesi');
    expect(mail).toContain(`R-${String(paid.receipt_number).padStart(6, '0')}`);
    const link = mail.match(/https?:\/\/\S+\/api\/receipts\/[\w-]+/)![0];
    const receipt = await fetch(link);
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await receipt.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});

describe('receipts', () => {
  it('100 fulfilments racing ten at a time get 100 consecutive receipt numbers, none shared, none skipped', async () => {
    const before = await db()
      .selectFrom('document_counters')
      .select('last_number')
      .where('kind', '=', 'receipt')
      .executeTakeFirstOrThrow();
    const orders = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        makePurchase(courses.usd.id, {
          email: `receipt-${index}-${randomUUID().slice(0, 6)}@example.com`,
          status: 'pending',
          provider: 'demo',
          payment_id: `demo_${randomUUID()}`,
          amount_minor: 900,
          currency: 'USD',
          completed_at: null,
          download_token: null,
        }),
      ),
    );
    // Ten at a time race for the counter: more only queue for the file's five connections (and, on a busy
    // machine, time out waiting for one), which tests the pool, not the numbering.
    const outcomes: string[] = [];
    for (let start = 0; start < orders.length; start += 10)
      outcomes.push(
        ...(await Promise.all(orders.slice(start, start + 10).map((order) => fulfilPayment({ paymentId: order.payment_id! })))),
      );
    expect(outcomes.every((outcome) => outcome === 'fulfilled')).toBe(true);
    const numbers = (
      await db()
        .selectFrom('purchases')
        .select('receipt_number')
        .where(
          'id',
          'in',
          orders.map((order) => order.id),
        )
        .execute()
    )
      .map((row) => row.receipt_number!)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, index) => before.last_number + 1 + index));
  });

  it('a refund issues a credit note referencing the receipt; the buyer, the mail link and the admin can download both, nobody else', async () => {
    const owner = await signedInBrowser(server, { role: 'user' });
    const stranger = await signedInBrowser(server, { role: 'user' });
    const me = (await (await owner.request('/api/session')).json()) as { user: { email: string } };
    const order = await pay(await orderOf(await checkout(courses.eur, { email: me.user.email }, owner)));
    const path = `/api/account/purchases/${order.id}/receipt`;
    expect((await owner.request(path)).status).toBe(200);
    expect((await owner.request(`${path}?document=credit-note`)).status).toBe(404);
    expect((await stranger.request(path)).status).toBe(404);
    expect((await server.fetch(path)).status).toBe(401);
    expect((await server.fetch(`/api/receipts/${'x'.repeat(43)}`)).status).toBe(404);

    expect(await revokePurchase({ orderId: order.id }, 'refunded')).toBe('revoked');
    const refunded = await db().selectFrom('purchases').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(refunded.credit_note_number).toBeGreaterThan(0);
    expect(refunded.receipt_number).toBe(order.receipt_number);
    const note = await owner.request(`${path}?document=credit-note`);
    expect(note.status).toBe(200);
    expect(note.headers.get('content-disposition')).toBe(
      `attachment; filename="CN-${String(refunded.credit_note_number).padStart(6, '0')}.pdf"`,
    );
    expect((await admin.request(`/api/admin/purchases/${order.id}/receipt?document=credit-note`)).status).toBe(200);
    expect((await server.fetch(`/api/receipts/${order.download_token}?document=credit-note`)).status).toBe(200);
    // A second refund event changes nothing: one credit note per order.
    await revokePurchase({ orderId: order.id }, 'refunded');
    const again = await db()
      .selectFrom('purchases')
      .select('credit_note_number')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(again.credit_note_number).toBe(refunded.credit_note_number);
    // The order history lists both documents.
    const orders = await (await owner.request('/en/dashboard/courses')).text();
    expect(orders).toContain(`R-${String(order.receipt_number).padStart(6, '0')}`);
    expect(orders).toContain(`CN-${String(refunded.credit_note_number).padStart(6, '0')}`);
  });

  it('a new guest’s checkout writes its order once, without a transaction; its payment reads each thing once, the settings from memory, and raises the receipt counter last, in the statement that queues its mail, so its lock is held for the commit alone', async () => {
    // The settings as a running shop has them: read once, then from memory until a save drops them.
    forgetSettings();
    await Promise.all([shopSettings(), taxSettings()]);
    // A single course (the dearest USD course is a bundle, whose payment reads and grants its courses).
    const single = await db()
      .selectFrom('courses')
      .select('id')
      .where('currency', '=', 'USD')
      .where('price_minor', '>', 0)
      .where('kind', '=', 'course')
      .executeTakeFirstOrThrow();
    const { result: started, statements: atCheckout } = await statementsOf(() =>
      startCheckout(
        CheckoutRequestSchema.parse({
          ...agreed,
          courseId: single.id,
          email: email('rounds'),
          fullName: 'Ada',
          language: 'en',
        }),
        undefined,
        { clientIp: '203.0.113.9' },
      ),
    );
    if (!started.ok || started.value.kind !== 'redirect') throw new Error(`checkout refused: ${JSON.stringify(started)}`);
    const { paymentId } = started.value;
    expect(atCheckout).not.toContain('begin');
    // The order is written with its payment page's reference, not updated with it afterwards.
    expect(atCheckout.filter((statement) => statement.startsWith('update "purchases"'))).toEqual([]);
    // A new account that adopted no earlier order is not asked whether it owns the course.
    expect(atCheckout.filter((statement) => statement.startsWith('select "id" from "purchases" where "user_id"'))).toEqual([]);

    const { result: outcome, statements: atPayment } = await statementsOf(() => fulfilPayment({ paymentId }));
    expect(outcome).toBe('fulfilled');
    // A course's order (no bundle, no gift) is read once, locked, with whether its buyer owns the course
    // already; completing it returns what its mail says; the settings come from memory.
    expect(atPayment.map((statement) => statement.split(' where ')[0]!.split(' (')[0]!.slice(0, 60))).toEqual([
      'begin',
      'select "id", "status", "amount_minor", "currency", "user_id"',
      'update "purchases" set "status" = $1, "payment_id" = $2, "pa',
      'with "counted" as',
      'commit',
    ]);
    const numbered = atPayment.findIndex((statement) => statement.includes('"document_counters"'));
    expect(atPayment[numbered]).toContain('insert into "mail_outbox"');
    expect(atPayment.slice(numbered + 1)).toEqual(['commit']);
    const order = await db()
      .selectFrom('purchases')
      .select(['receipt_number', 'id'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    const mail = await db()
      .selectFrom('mail_outbox')
      .select('render_with')
      .where('recipient', 'like', 'rounds-%')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(mail.render_with)).toContain(`R-${String(order.receipt_number).padStart(6, '0')}`);
  });

  it('names the tax a gross price includes', () => {
    expect(includedTax(1200, 20)).toBe(200);
    expect(includedTax(14900, 20)).toBe(2483);
    expect(includedTax(999, 0)).toBe(0);
  });
});

describe('discount codes', () => {
  it('a 10-use code admits exactly 10 of 50 concurrent checkouts; an order that expires gives its use back', async () => {
    const { status, json } = await createCode({ code: 'rush10', maxRedemptions: '10' });
    expect(status).toBe(201);
    const responses = await Promise.all(Array.from({ length: 50 }, () => checkout(courses.eur, { discountCode: 'Rush10' })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((code) => code === 200)).toHaveLength(10);
    expect(statuses.filter((code) => code === 400)).toHaveLength(40);
    const refused = (await responses[statuses.indexOf(400)]!.json()) as { error: { fields: object } };
    expect(refused.error.fields).toEqual({ discountCode: 'checkout.codeUsedUp' });
    const held = await db().selectFrom('purchases').selectAll().where('discount_code_id', '=', json.id).execute();
    expect(held).toHaveLength(10);
    const discounted = Math.round(courses.eur.price_minor * 0.9);
    for (const order of held) {
      expect(order.amount_minor).toBe(discounted);
      expect(order.discount_minor).toBe(courses.eur.price_minor - discounted);
      // Stripe is asked for the discounted amount, never the list price.
      expect(stripe.sessions.get(order.payment_id!)?.amount_total).toBe(discounted);
    }

    await closeOrder({ paymentId: held[0]!.payment_id! }, 'expired');
    const code = await db()
      .selectFrom('discount_codes')
      .select('redemptions')
      .where('id', '=', json.id)
      .executeTakeFirstOrThrow();
    expect(code.redemptions).toBe(9);
    expect((await checkout(courses.eur, { discountCode: 'RUSH10' })).status).toBe(200);
    expect((await checkout(courses.eur, { discountCode: 'RUSH10' })).status).toBe(400);
  });

  it('unpaid checkouts hold a use only while their payment page is open, and a few per client: ten from one client cannot exhaust a 10-use code', async () => {
    const { json } = await createCode({ code: 'HOLD10', maxRedemptions: '10' });
    const reason = async (response: Response) =>
      ((await response.json()) as { error: { fields: { discountCode: string } } }).error.fields.discountCode;
    const hoarder = new Browser(server);
    const hoarded = [];
    for (let n = 0; n < 10; n++) hoarded.push(await checkout(courses.eur, { discountCode: 'hold10' }, hoarder));
    expect(hoarded.map((response) => response.status)).toEqual([...Array(3).fill(200), ...Array(7).fill(400)]);
    expect(await reason(hoarded[3]!)).toBe('checkout.codeHeld');
    // Each hold ends when its Stripe Checkout page does.
    const order = await orderOf(hoarded[0]!);
    expect(order.discount_held_until!.getTime()).toBe(
      (stripe.sessions.get(order.payment_id!) as { expires_at: number }).expires_at * 1000,
    );

    // A real buyer still gets the code. Back from the payment page, trying again (the same mailbox spelt
    // another way, from elsewhere), their new page takes over their hold: one use, not two.
    const first = await checkout(courses.eur, { discountCode: 'HOLD10', email: 'real.buyer+a@gmail.com' });
    expect(first.status).toBe(200);
    expect((await checkout(courses.eur, { discountCode: 'HOLD10', email: 'realbuyer@googlemail.com' })).status).toBe(200);
    expect((await orderOf(first)).discount_held_until).toBeNull();
    const redemptions = async () =>
      (await db().selectFrom('discount_codes').select('redemptions').where('id', '=', json.id).executeTakeFirstOrThrow())
        .redemptions;
    expect(await redemptions()).toBe(4);

    // The pages close without a word from Stripe: the next checkout gives their uses back.
    await db()
      .updateTable('purchases')
      .set({ discount_held_until: new Date(Date.now() - 1000) })
      .where('discount_code_id', '=', json.id)
      .execute();
    expect((await checkout(courses.eur, { discountCode: 'HOLD10' }, hoarder)).status).toBe(200);
    expect(await redemptions()).toBe(1);
    // Paid after its page closed (the demo page can be): the order completes and takes its use again.
    expect((await pay(order)).status).toBe('completed');
    expect(await redemptions()).toBe(2);
  });

  it('prices on the server only: a 100 % code enrols without payment, and a price under Stripe’s minimum is refused', async () => {
    await createCode({ code: 'GIFT100', percent: '100' });
    const free = await checkout(courses.usd, { discountCode: 'gift100', waiveWithdrawal: false });
    expect(free.status).toBe(200);
    const { redirectUrl } = (await free.json()) as { redirectUrl: string };
    expect(redirectUrl).toMatch(/\/checkout\/success\?session_id=free_/);
    const enrolment = await db()
      .selectFrom('purchases')
      .selectAll()
      .where('payment_id', '=', new URL(redirectUrl).searchParams.get('session_id')!)
      .executeTakeFirstOrThrow();
    expect(enrolment).toMatchObject({
      status: 'completed',
      amount_minor: 0,
      discount_minor: courses.usd.price_minor,
      discount_code: 'GIFT100',
    });

    await createCode({ code: 'ALMOST', kind: 'fixed', percent: '', amountUSD: String((courses.usd.price_minor - 10) / 100) });
    const tooLow = await checkout(courses.usd, { discountCode: 'almost' });
    expect(tooLow.status).toBe(400);
    expect(((await tooLow.json()) as { error: { fields: object } }).error.fields).toEqual({
      discountCode: 'checkout.codeBelowMinimum',
    });
    // The browser never sends a price: an amount in the body is ignored.
    const order = await orderOf(await checkout(courses.eur, { amountMinor: 1, amount_minor: 1 }));
    expect(order.amount_minor).toBe(courses.eur.price_minor);
  });

  it('says why a code does not apply: unknown, inactive, not yet valid, expired, another course or currency, used once already', async () => {
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const past = new Date(Date.now() - 86_400_000).toISOString();
    await createCode({ code: 'LATER', startsAt: soon });
    await createCode({ code: 'OVER', startsAt: new Date(Date.now() - 2 * 86_400_000).toISOString(), endsAt: past });
    await createCode({ code: 'OFF', active: false });
    await createCode({ code: 'ONLYTRY', kind: 'fixed', percent: '', amountTRY: '10' });
    await createCode({ code: 'ONE', allCourses: false, courseIds: [courses.usd.id] });
    await createCode({ code: 'ONCE', oncePerBuyer: true });
    const quote = (course: { id: string }, discountCode: string, browser = new Browser(server)) =>
      browser.postJson('/api/checkout/quote', { courseId: course.id, language: 'en', discountCode });
    const reason = async (response: Response) =>
      ((await response.json()) as { error: { fields: { discountCode: string } } }).error.fields.discountCode;
    expect(await reason(await quote(courses.eur, 'NOPE'))).toBe('checkout.codeUnknown');
    expect(await reason(await quote(courses.eur, 'off'))).toBe('checkout.codeUnknown');
    expect(await reason(await quote(courses.eur, 'later'))).toBe('checkout.codeNotStarted');
    expect(await reason(await quote(courses.eur, 'over'))).toBe('checkout.codeExpired');
    expect(await reason(await quote(courses.eur, 'onlytry'))).toBe('checkout.codeNotForCourse');
    expect(await reason(await quote(courses.eur, 'one'))).toBe('checkout.codeNotForCourse');
    const ok = await quote(courses.usd, ' one ');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ code: 'ONE', listMinor: courses.usd.price_minor, currency: 'USD' });

    const buyer = await signedInBrowser(server, { role: 'user' });
    const me = (await (await buyer.request('/api/session')).json()) as { user: { email: string } };
    expect((await checkout(courses.eur, { email: me.user.email, discountCode: 'once' }, buyer)).status).toBe(200);
    expect(await reason(await quote(courses.usd, 'ONCE', buyer))).toBe('checkout.codeAlreadyUsed');
    expect(await reason(await checkout(courses.usd, { email: me.user.email, discountCode: 'once' }, buyer))).toBe(
      'checkout.codeAlreadyUsed',
    );
    // Another spelling of one mailbox is the same buyer: a +tag anywhere, dots at Gmail.
    await createCode({ code: 'ONCEGMAIL', oncePerBuyer: true });
    expect((await checkout(courses.usd, { email: 'a.b+x@gmail.com', discountCode: 'oncegmail' })).status).toBe(200);
    expect(await reason(await checkout(courses.eur, { email: 'ab@gmail.com', discountCode: 'oncegmail' }))).toBe(
      'checkout.codeAlreadyUsed',
    );
    expect(
      await reason(
        await quote(
          courses.eur,
          'ONCE',
          await signedInBrowser(server, { email: me.user.email.replace('@', '+again@'), role: 'user' }),
        ),
      ),
    ).toBe('checkout.codeAlreadyUsed');
  });

  it('checks codes unlimited while limits are switched off, as every other limit is (this file runs with them off)', async () => {
    const browser = new Browser(server);
    const statuses = new Set<number>();
    for (let check = 0; check <= LIMITS.codeChecksPerClient.max; check++)
      statuses.add(
        (await browser.postJson('/api/checkout/quote', { courseId: courses.eur.id, language: 'en', discountCode: 'NOPE' }))
          .status,
      );
    expect([...statuses]).toEqual([400]);
  });

  it('are the admin’s: codes are unique whatever their case, checked field by field, and fewer uses than taken is refused', async () => {
    expect((await createCode({ code: 'SPRING' })).status).toBe(201);
    const duplicate = await createCode({ code: 'spring' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json.error?.fields).toEqual({ code: 'admin.discounts.codeTaken' });
    const bad = await createCode({ code: 'a', kind: 'fixed', percent: '', startsAt: 'tomorrow', allCourses: false });
    expect(bad.status).toBe(400);
    expect(bad.json.error?.fields).toEqual({
      code: 'admin.discounts.codeInvalid',
      startsAt: 'admin.discounts.dateInvalid',
    });
    const { json } = await createCode({ code: 'TWICE', maxRedemptions: '5' });
    await checkout(courses.eur, { discountCode: 'twice' });
    await checkout(courses.eur, { discountCode: 'twice' });
    const lower = await admin.json('PUT', `/api/admin/discounts/${json.id}`, {
      code: 'TWICE',
      kind: 'percent',
      percent: '10',
      maxRedemptions: '1',
    });
    expect(lower.status).toBe(400);
    expect(((await lower.json()) as { error: { fields: object } }).error.fields).toEqual({
      maxRedemptions: 'admin.discounts.maxBelowUsed',
    });
    const listed = (await (await admin.request('/api/admin/discounts')).json()) as {
      discounts: { code: string; redemptions: number }[];
    };
    expect(listed.discounts.find((discount) => discount.code === 'TWICE')?.redemptions).toBe(2);
  });
});
