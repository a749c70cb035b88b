import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { startCheckout } from '../../../functions/orders/checkout.ts';
import { fulfilPayment, revokePurchase } from '../../../functions/orders/fulfilment.ts';
import { deliverDueGifts, listGifts, resendGift } from '../../../functions/orders/gifts.ts';
import { recentSales } from '../../../functions/orders/admin-sales.ts';
import { purchaseForToken } from '../../../functions/downloads/downloads.ts';
import { listOrders, ownedCourses } from '../../../functions/orders/library.ts';
import { receiptOfBuyer } from '../../../functions/orders/receipts.ts';
import { funnelRows } from '../../../functions/funnel/report.ts';
import { mailboxKey } from '../../../functions/mail/mailbox-key.ts';
import { isoDay } from '../../../src/lib/gift.schema.ts';
import { startFakeStripe } from '../../support/fake-stripe.ts';
import { makeCourse, makePurchase, uniqueEmail } from '../../support/factories.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;

beforeAll(async () => {
  stripe = await startFakeStripe();
  Object.assign(process.env, stripe.settings);
});
afterAll(() => stripe.stop());

/** A guest buys a course as a gift for tomorrow (ticking "send me news" for themselves), paid through the Stripe fake. */
async function giftForTomorrow() {
  const course = await makeCourse({ title: 'A gifted course', price_minor: 900, currency: 'USD' });
  const buyer = uniqueEmail('giver');
  const recipient = uniqueEmail('recipient');
  const started = await startCheckout(
    {
      courseId: course.id,
      email: buyer,
      fullName: 'Gift Giver',
      language: 'tr',
      acceptTerms: true,
      waiveWithdrawal: true,
      sendNews: true,
      discountCode: '',
      gift: true,
      giftTo: recipient,
      giftMessage: 'İyi ki doğdun!',
      giftDate: isoDay(new Date(Date.now() + DAY_MS)),
    },
    undefined,
    { clientIp: '203.0.113.40' },
  );
  expect(started).toMatchObject({ ok: true, value: { kind: 'redirect' } });
  const order = await db().selectFrom('purchases').selectAll().where('email', '=', buyer).executeTakeFirstOrThrow();
  expect(await fulfilPayment({ paymentId: order.payment_id!, amountMinor: 900, currency: 'USD' })).toBe('fulfilled');
  const buyerId = (await db().selectFrom('users').select('id').where('email', '=', buyer).executeTakeFirstOrThrow()).id;
  return { course, buyer, buyerId, recipient, order: { ...order, status: 'completed' } };
}

const mailsTo = (address: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['kind', 'language', 'subject'])
    .where('recipient', '=', address)
    .orderBy('created_at')
    .execute();

describe('a gift', () => {
  it("is delivered on its day, and its refund ends the recipient's access, telling the buyer and the seller, never the recipient", async () => {
    const { course, buyer, recipient, order } = await giftForTomorrow();
    // The order is nobody's course: the buyer gets the receipt, not the file (its token opens nothing).
    expect(order.user_id).toBeNull();
    // (and the double opt-in they asked for themselves).
    expect((await mailsTo(buyer)).map((mail) => mail.kind)).toEqual(['subscription-confirm', 'gift-receipt']);
    expect(await purchaseForToken(order.download_token!)).toEqual({ problem: 'unknown' });

    expect(await deliverDueGifts(db(), new Date())).toBe(0);
    expect(await mailsTo(recipient)).toEqual([]);
    expect(await deliverDueGifts(db(), new Date(Date.now() + DAY_MS))).toBe(1);
    expect(await deliverDueGifts(db(), new Date(Date.now() + DAY_MS))).toBe(0);
    const [gift] = await mailsTo(recipient);
    // In the language the buyer chose, naming the giver.
    expect(gift).toMatchObject({
      kind: 'gift',
      language: 'tr',
      subject: 'Gift Giver size “A gifted course” kursunu hediye etti',
    });
    const account = await db()
      .selectFrom('users')
      .select(['id', 'email_verified'])
      .where('email', '=', recipient)
      .executeTakeFirstOrThrow();
    const grant = await db()
      .selectFrom('purchases')
      .select(['status', 'guest', 'amount_minor', 'provider'])
      .where('user_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(grant).toEqual({ status: 'completed', guest: true, amount_minor: 0, provider: 'gift' });
    // A guest purchase: it opens once the recipient proves the address (the mail's sign-in link does).
    await db().updateTable('users').set({ email_verified: true }).where('id', '=', account.id).execute();
    expect((await ownedCourses(account.id)).map((owned) => owned.courseId)).toEqual([course.id]);

    expect(await revokePurchase({ orderId: order.id }, 'refunded')).toBe('revoked');
    expect(await ownedCourses(account.id)).toEqual([]);
    expect((await mailsTo(buyer)).map((mail) => mail.kind)).toEqual(['subscription-confirm', 'gift-receipt', 'refund-notice']);
    expect((await mailsTo(recipient)).map((mail) => mail.kind)).toEqual(['gift']);
    const sale = (await recentSales(50)).find((candidate) => candidate.id === order.id);
    expect(sale).toMatchObject({ status: 'refunded', email: buyer });
  });

  it('never makes its recipient a subscriber, and only its buyer may send it again', async () => {
    const { buyer, buyerId, recipient } = await giftForTomorrow();
    const subscribed = (address: string) =>
      db().selectFrom('subscribers').select('status').where('mailbox_key', '=', mailboxKey(address)).execute();
    // The buyer's own box asked for news for the buyer only.
    expect(await subscribed(buyer)).toEqual([{ status: 'pending' }]);

    // Signed out, the buyer's account has not proved its address: no gifts listed, none to send.
    expect(await listGifts(buyerId)).toEqual([]);
    await db().updateTable('users').set({ email_verified: true }).where('id', '=', buyerId).execute();
    const [listed] = await listGifts(buyerId);
    expect(listed).toMatchObject({ recipientEmail: recipient, state: 'scheduled' });
    const stranger = await db()
      .insertInto('users')
      .values({ email: uniqueEmail('stranger'), full_name: 'Stranger', email_verified: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await resendGift(stranger.id, listed!.id)).toMatchObject({ ok: false, error: 'not_found' });

    // "Send now" delivers it before its day; at once again is refused (a stranger's mailbox is not flooded).
    expect(await resendGift(buyerId, listed!.id)).toEqual({ ok: true, value: { sent: 'delivered' } });
    expect(await resendGift(buyerId, listed!.id)).toMatchObject({ ok: false, code: 'gift_sent_recently' });
    expect((await listGifts(buyerId))[0]).toMatchObject({ state: 'delivered' });

    expect(await subscribed(recipient)).toEqual([]);
    expect((await mailsTo(recipient)).map((mail) => mail.kind)).toEqual(['gift']);
  });

  it("of a bundle: priced without the buyer's own courses, delivered as each course the recipient lacks, one order in its buyer's history and one sale (its grants none), and its refund revokes them all", async () => {
    const verifiedUser = async (prefix: string) => {
      const email = uniqueEmail(prefix);
      const user = await db()
        .insertInto('users')
        .values({ email, full_name: 'Bundle Giver', email_verified: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: user.id, email };
    };
    const [buyer, recipient] = await Promise.all([verifiedUser('bundle-giver'), verifiedUser('bundle-recipient')]);
    const courses = await Promise.all([1, 2].map((n) => makeCourse({ title: `Gifted ${n}`, price_minor: 600, currency: 'USD' })));
    const bundle = await makeCourse({
      title: 'A gifted bundle',
      kind: 'bundle',
      pdf_path: null,
      price_minor: 1000,
      currency: 'USD',
    });
    await db()
      .insertInto('bundle_items')
      .values(courses.map((course, position) => ({ bundle_id: bundle.id, course_id: course.id, position })))
      .execute();
    // Both own the first course: bought for themselves, it would lower the buyer's price of the bundle.
    for (const owner of [buyer, recipient])
      await makePurchase(courses[0]!.id, { user_id: owner.id, email: owner.email, amount_minor: 600, provider: 'demo' });

    const started = await startCheckout(
      {
        courseId: bundle.id,
        email: buyer.email,
        fullName: 'Bundle Giver',
        language: 'en',
        acceptTerms: true,
        waiveWithdrawal: true,
        sendNews: false,
        discountCode: '',
        gift: true,
        giftTo: recipient.email,
        giftMessage: '',
        giftDate: isoDay(new Date()),
      },
      { id: buyer.id, email: buyer.email, fullName: 'Bundle Giver', language: 'en', role: 'user', sessionId: 'gift-test' },
      { clientIp: '203.0.113.41' },
    );
    expect(started).toMatchObject({ ok: true, value: { kind: 'redirect' } });
    const order = await db()
      .selectFrom('purchases')
      .selectAll()
      .where('course_id', '=', bundle.id)
      .where('email', '=', buyer.email)
      .executeTakeFirstOrThrow();
    // The recipient's library is none of the shop's business when pricing: the bundle's full price.
    expect(order.amount_minor).toBe(1000);
    expect(await fulfilPayment({ paymentId: order.payment_id!, amountMinor: 1000, currency: 'USD' })).toBe('fulfilled');
    // Paid, it grants nothing to anyone before its delivery.
    expect(await db().selectFrom('purchases').select('id').where('bundle_purchase_id', '=', order.id).execute()).toEqual([]);

    await deliverDueGifts(db(), new Date());
    const owned = async (userId: string) => (await ownedCourses(userId)).map((purchase) => purchase.courseId).sort();
    expect(await owned(recipient.id)).toEqual([bundle.id, ...courses.map((course) => course.id)].sort());
    expect(await owned(buyer.id)).toEqual([courses[0]!.id]);

    // The buyer's order history: the gift, with its receipt, beside their own order.
    const history = await listOrders(buyer.id);
    expect(history.map((line) => [line.courseTitle, line.amountMinor, line.gift])).toEqual([
      ['A gifted bundle', 1000, { recipientEmail: recipient.email, deliverOn: isoDay(new Date()), delivered: true }],
      ['Gifted 1', 600, null],
    ]);
    expect(history[0]!.receipt).toMatchObject({ number: expect.stringMatching(/^R-/) });
    expect(await receiptOfBuyer(order.id, buyer.id)).toMatchObject({ id: order.id });
    expect(await receiptOfBuyer(order.id, recipient.id)).toBeUndefined();

    // One sale, of the order; the recipient's grants are no sale, no €0 line, no checkout in the funnel.
    const salesOf = (lines: { email: string; amountMinor: number }[]) =>
      lines.filter((line) => [buyer.email, recipient.email].includes(line.email)).map((line) => [line.email, line.amountMinor]);
    const sold = [
      [recipient.email, 600],
      [buyer.email, 600],
      [buyer.email, 1000],
    ];
    expect(salesOf(await recentSales(500)).sort()).toEqual(sold.sort());
    const funnel = await funnelRows('1month');
    expect(funnel.filter((row) => row.courseId === courses[1]!.id)).toEqual([]);
    expect(funnel.filter((row) => row.courseId === bundle.id)).toMatchObject([{ checkouts: 1, paid: 1 }]);

    expect(await revokePurchase({ orderId: order.id }, 'refunded')).toBe('revoked');
    expect(await owned(recipient.id)).toEqual([courses[0]!.id]);
    expect((await listOrders(buyer.id))[0]).toMatchObject({
      status: 'refunded',
      creditNote: { number: expect.stringMatching(/^CN-/) },
    });
    expect((await mailsTo(recipient.email)).map((mail) => mail.kind)).toEqual(['gift']);
    expect((await mailsTo(buyer.email)).map((mail) => mail.kind)).toEqual(['gift-receipt', 'refund-notice']);
  });
});
