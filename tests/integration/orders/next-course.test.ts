import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { priceWithCode, takeCode } from '../../../functions/discounts/discounts.ts';
import { mostOftenBoughtWith, offerAfterOrder, offerPath } from '../../../functions/offers/next-course.ts';
import { lowestRecentPrice } from '../../../functions/offers/price-history.ts';
import { queueMaterialsMail } from '../../../functions/orders/materials.ts';
import { renderMail } from '../../../functions/mail/template.ts';
import { courseMaterials } from '../../../functions/mail/templates/index.ts';
import type { MailOffer } from '../../../functions/offers/offer-words.ts';
import { mailboxKey } from '../../../functions/mail/mailbox-key.ts';
import { makeCourse, makePurchase, uniqueEmail } from '../../support/factories.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

async function makeBuyer(name = 'buyer') {
  const email = uniqueEmail(name);
  const user = await db()
    .insertInto('users')
    .values({ email, full_name: 'Deniz Kaya', email_verified: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: user.id, email };
}

/** A completed, paid order of a course by a buyer (or as the overrides say). */
async function order(courseId: string, buyer: { id: string; email: string }, overrides: Parameters<typeof makePurchase>[1] = {}) {
  return makePurchase(courseId, {
    user_id: buyer.id,
    email: buyer.email,
    buyer_key: mailboxKey(buyer.email),
    provider: 'demo',
    payment_id: `demo_${randomUUID()}`,
    amount_minor: 499,
    ...overrides,
  });
}

/** Course A whose seller offers B (US$10.00) for 20 % off, for 24 hours, and a buyer who has just bought A. */
async function boughtWithOffer({ completedAt = new Date() } = {}) {
  const [a, b] = await Promise.all([makeCourse({ title: 'A' }), makeCourse({ title: 'B', price_minor: 1000 })]);
  await db()
    .insertInto('course_offers')
    .values({ course_id: a.id, offered_course_id: b.id, discount_percent: 20, discount_hours: 24 })
    .execute();
  const buyer = await makeBuyer();
  const bought = await order(a.id, buyer, { completed_at: completedAt });
  return { a, b, buyer, bought };
}

describe('the next course after a purchase', () => {
  it('is, without the seller choosing, the course most often bought by its buyers: paid, completed orders only', async () => {
    const [a, b, c] = await Promise.all([makeCourse({ title: 'A' }), makeCourse({ title: 'B' }), makeCourse({ title: 'C' })]);
    const pairs: [string, Parameters<typeof makePurchase>[1]][] = [
      // B: one real purchase; two refunded and two free enrolments, which must not count.
      [b.id, {}],
      [b.id, { status: 'refunded' }],
      [b.id, { status: 'refunded' }],
      [b.id, { amount_minor: 0, provider: 'free' }],
      [b.id, { amount_minor: 0, provider: 'free' }],
      // C: two real purchases.
      [c.id, {}],
      [c.id, {}],
    ];
    for (const [other, overrides] of pairs) {
      const buyer = await makeBuyer();
      await order(a.id, buyer);
      await order(other, buyer, overrides);
    }
    expect(await mostOftenBoughtWith(db(), a.id)).toBe(c.id);

    const newcomer = await makeBuyer();
    const bought = await order(a.id, newcomer);
    expect((await offerAfterOrder(bought.id))?.course).toMatchObject({ id: c.id, title: 'C' });
    // The seller's choice wins over the count.
    await db().insertInto('course_offers').values({ course_id: a.id, offered_course_id: b.id }).execute();
    expect(await offerAfterOrder(bought.id)).toEqual({
      course: { id: b.id, title: 'B', coverImageUrl: null, priceMinor: 499, currency: 'USD' },
    });
  });

  it('gives the order a single-use code for the offered course, for its buyer alone, which the checkout honours', async () => {
    const { b, buyer, bought } = await boughtWithOffer();
    const offer = (await offerAfterOrder(bought.id))!;
    expect(offer.discount).toMatchObject({ totalMinor: 800, code: expect.stringMatching(/^NEXT-[0-9A-F]{16}$/) });
    expect(offer.discount!.endsAt.getTime()).toBe(bought.completed_at!.getTime() + 24 * HOUR_MS);
    expect(offerPath('tr', offer)).toBe(`/tr/checkout/${b.id}?code=${offer.discount!.code}`);
    // Shown again (the mail, a reload): the same code, not a second one.
    expect((await offerAfterOrder(bought.id))!.discount!.code).toBe(offer.discount!.code);
    const codes = await db().selectFrom('discount_codes').select('id').where('offer_purchase_id', '=', bought.id).execute();
    expect(codes).toHaveLength(1);

    const course = { id: b.id, priceMinor: 1000, currency: 'USD' };
    const code = offer.discount!.code;
    expect(await priceWithCode(course, code, buyer.email)).toMatchObject({ ok: true, value: { totalMinor: 800 } });
    expect(await priceWithCode(course, code, uniqueEmail('stranger'))).toMatchObject({
      ok: false,
      fields: { discountCode: 'checkout.codeNotYours' },
    });
    const other = await makeCourse({ title: 'Not offered', price_minor: 1000 });
    expect(await priceWithCode({ ...course, id: other.id }, code, buyer.email)).toMatchObject({ ok: false });

    // One use: the buyer's paid order takes it; nobody, the buyer included, gets a second.
    const holder = { email: buyer.email, clientIp: '127.0.0.1' };
    const take = () =>
      db()
        .transaction()
        .execute((trx) => takeCode(trx, codes[0]!.id, holder));
    expect(await take()).toBe('taken');
    await order(b.id, buyer, { amount_minor: 800, discount_code_id: codes[0]!.id, discount_minor: 200 });
    expect(await take()).not.toBe('taken');
    expect(await priceWithCode(course, code, buyer.email)).toMatchObject({ ok: false });
    // And the buyer now owns the course: no offer any more.
    expect(await offerAfterOrder(bought.id)).toBeUndefined();
  });

  it('ends its discount at a fixed time after the purchase, on the server, and with a refund of the order', async () => {
    const late = await boughtWithOffer({ completedAt: new Date(Date.now() - 25 * HOUR_MS) });
    const offer = await offerAfterOrder(late.bought.id);
    expect(offer).toEqual({ course: expect.objectContaining({ id: late.b.id, priceMinor: 1000 }) });
    expect(
      await db().selectFrom('discount_codes').select('id').where('offer_purchase_id', '=', late.bought.id).execute(),
    ).toEqual([]);

    const { b, buyer, bought } = await boughtWithOffer();
    const code = (await offerAfterOrder(bought.id))!.discount!.code;
    // Its end is the same whenever it is looked at: no timer starts again.
    const later = await offerAfterOrder(bought.id, db(), new Date(Date.now() + 23 * HOUR_MS));
    expect(later?.discount?.code).toBe(code);
    expect(await offerAfterOrder(bought.id, db(), new Date(Date.now() + 25 * HOUR_MS))).toEqual({ course: expect.any(Object) });

    const course = { id: b.id, priceMinor: 1000, currency: 'USD' };
    await db().updateTable('purchases').set({ status: 'refunded' }).where('id', '=', bought.id).execute();
    expect(await priceWithCode(course, code, buyer.email)).toMatchObject({ fields: { discountCode: 'checkout.codeExpired' } });
    await db().updateTable('purchases').set({ status: 'completed' }).where('id', '=', bought.id).execute();
    // The clock past its end: the checkout refuses it, whatever the browser shows.
    await db()
      .updateTable('discount_codes')
      .set({ ends_at: new Date(Date.now() - 1000) })
      .where('code', '=', code)
      .execute();
    expect(await priceWithCode(course, code, buyer.email)).toMatchObject({ fields: { discountCode: 'checkout.codeExpired' } });
  });

  it('is not shown when the buyer owns the offered course, nor when that course is off sale', async () => {
    const { b, buyer, bought } = await boughtWithOffer();
    await order(b.id, buyer, { amount_minor: 0, provider: 'bundle' });
    expect(await offerAfterOrder(bought.id)).toBeUndefined();

    const second = await boughtWithOffer();
    await db().updateTable('courses').set({ is_active: false }).where('id', '=', second.b.id).execute();
    expect(await offerAfterOrder(second.bought.id)).toBeUndefined();
  });

  it('shows as its price before the lowest price of the 30 days before, from the recorded price changes', async () => {
    const { b, bought } = await boughtWithOffer();
    // Every price change is recorded (a title change is not).
    await db().updateTable('courses').set({ title: 'B, renamed' }).where('id', '=', b.id).execute();
    await db().updateTable('courses').set({ price_minor: 1100 }).where('id', '=', b.id).execute();
    await db().updateTable('courses').set({ price_minor: 1000 }).where('id', '=', b.id).execute();
    const history = await db()
      .selectFrom('course_price_changes')
      .select('price_minor')
      .where('course_id', '=', b.id)
      .orderBy('id')
      .execute();
    expect(history.map((row) => row.price_minor)).toEqual([1000, 1100, 1000]);

    const setHistory = async (changes: [daysAgo: number, priceMinor: number][]) => {
      await db().deleteFrom('course_price_changes').where('course_id', '=', b.id).execute();
      await db()
        .insertInto('course_price_changes')
        .values(
          changes.map(([daysAgo, price_minor]) => ({
            course_id: b.id,
            price_minor,
            currency: 'USD',
            changed_at: new Date(Date.now() - daysAgo * DAY_MS),
          })),
        )
        .execute();
    };
    // 500 was too long ago; 1200 was the price when the 30 days began; 900 for a while; 1000 now.
    await setHistory([
      [60, 500],
      [35, 1200],
      [10, 900],
      [2, 1000],
    ]);
    expect(await lowestRecentPrice(db(), b.id, 'USD')).toBe(900);
    expect((await offerAfterOrder(bought.id))!.discount!.before).toEqual({ priceMinor: 900, percent: 11 });

    // The offer (800) is not below a price of the period (700): no reduction is announced.
    await setHistory([
      [40, 1000],
      [20, 700],
      [5, 1000],
    ]);
    const offer = (await offerAfterOrder(bought.id))!;
    expect(offer.discount).toMatchObject({ totalMinor: 800 });
    expect(offer.discount!.before).toBeUndefined();
  });

  it('goes into the materials mail only for a buyer who confirmed their consent to marketing mail', async () => {
    const { a, b } = await boughtWithOffer();
    const consenting = await makeBuyer('consenting');
    const silent = await makeBuyer('silent');
    const pending = await makeBuyer('pending');
    await db()
      .insertInto('subscribers')
      .values(
        [
          {
            email: consenting.email,
            mailbox_key: mailboxKey(consenting.email),
            status: 'active' as const,
            confirmed_at: new Date(),
          },
          { email: pending.email, mailbox_key: mailboxKey(pending.email), status: 'pending' as const },
        ].map((row) => ({ ...row, languages: ['en'], topics: ['all'] })),
      )
      .execute();

    const offerInMail = async (buyer: { id: string; email: string }) => {
      const bought = await order(a.id, buyer);
      await db()
        .transaction()
        .execute((trx) => queueMaterialsMail(trx, bought.id));
      const mail = await db()
        .selectFrom('mail_outbox')
        .select('render_with')
        .where('recipient', '=', buyer.email)
        .where('kind', '=', 'course-materials')
        .executeTakeFirstOrThrow();
      return (mail.render_with as unknown as { props: { offer?: MailOffer } }).props.offer;
    };
    expect(await offerInMail(silent)).toBeUndefined();
    expect(await offerInMail(pending)).toBeUndefined();
    const offer = await offerInMail(consenting);
    expect(offer).toMatchObject({ title: 'B', price: '$8.00', url: expect.stringContaining(`/en/checkout/${b.id}?code=NEXT-`) });
    const rendered = await renderMail(
      courseMaterials,
      { ...courseMaterials.sample('en'), documents: undefined, offer },
      { to: consenting.email, language: 'en' },
    );
    expect(rendered.text).toMatch(/Next, you may like/i);
    expect(rendered.text).toContain('You get this suggestion because you subscribed to our news.');
    expect(rendered.text).toContain('/en/subscription?token=');
  });
});
