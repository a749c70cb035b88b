import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { fulfilPayment, restoreDisputedPurchase, revokePurchase } from '../../../functions/orders/fulfilment.ts';
import { getActiveCourse } from '../../../functions/catalogue/catalogue.ts';
import { recentSales } from '../../../functions/orders/admin-sales.ts';
import { listOrders } from '../../../functions/orders/library.ts';
import { bundleDownloads, priceForBuyer } from '../../../functions/orders/bundles.ts';
import { startCheckout } from '../../../functions/orders/checkout.ts';
import { startFakeStripe } from '../../support/fake-stripe.ts';
import { makeCourse, makePurchase, uniqueEmail } from '../../support/factories.ts';

let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
beforeAll(async () => {
  stripe = await startFakeStripe();
  Object.assign(process.env, stripe.settings);
});
afterAll(() => stripe.stop());

/** A buyer, three courses, a bundle of them, and the buyer already owning the first. */
async function bundleBoughtByOwnerOfOne() {
  const email = uniqueEmail('bundle-buyer');
  const user = await db()
    .insertInto('users')
    .values({ email, full_name: 'Deniz Kaya', email_verified: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const courses = await Promise.all([1, 2, 3].map((n) => makeCourse({ title: `Course ${n}` })));
  const bundle = await makeCourse({ title: 'All three', kind: 'bundle', pdf_path: null, price_minor: 1000 });
  await db()
    .insertInto('bundle_items')
    .values(courses.map((course, position) => ({ bundle_id: bundle.id, course_id: course.id, position })))
    .execute();
  const ownedBefore = await makePurchase(courses[0]!.id, { user_id: user.id, email, amount_minor: 499, provider: 'demo' });
  const order = await makePurchase(bundle.id, {
    user_id: user.id,
    email,
    status: 'pending',
    provider: 'demo',
    amount_minor: 667,
    download_token: null,
    completed_at: null,
  });
  return { user, courses, bundle, ownedBefore, order };
}

const purchasesOf = (userId: string) =>
  db()
    .selectFrom('purchases')
    .select(['id', 'course_id', 'status', 'provider', 'amount_minor', 'bundle_purchase_id', 'download_token'])
    .where('user_id', '=', userId)
    .execute();

describe('a bundle order', () => {
  it('grants each course the buyer lacks on payment, and its refund revokes all of them but nothing bought apart', async () => {
    const { user, courses, bundle, ownedBefore, order } = await bundleBoughtByOwnerOfOne();
    const email = order.email;
    expect(await fulfilPayment({ paymentId: order.payment_id!, amountMinor: 667, currency: 'USD' })).toBe('fulfilled');

    const after = await purchasesOf(user.id);
    const granted = after.filter((purchase) => purchase.bundle_purchase_id === order.id);
    expect(granted.map((purchase) => purchase.course_id).sort()).toEqual([courses[1]!.id, courses[2]!.id].sort());
    for (const purchase of granted) {
      expect(purchase).toMatchObject({ status: 'completed', provider: 'bundle', amount_minor: 0 });
      expect(purchase.download_token).toMatch(/^[\w-]{40,}$/);
    }
    expect(new Set(granted.map((purchase) => purchase.download_token)).size).toBe(2);
    expect(after.find((purchase) => purchase.course_id === bundle.id)).toMatchObject({ status: 'completed', amount_minor: 667 });
    // One sale and one line in the buyer's orders for the bundle, none for the courses it gave.
    expect((await recentSales(500)).filter((sale) => sale.email === email).map((sale) => sale.amountMinor)).toEqual([667, 499]);
    expect((await listOrders(user.id)).map((line) => line.courseTitle).sort()).toEqual(['All three', 'Course 1']);
    // One receipt, for the bundle's order only.
    const receipts = await db().selectFrom('purchases').select('receipt_number').where('user_id', '=', user.id).execute();
    expect(receipts.filter((row) => row.receipt_number !== null)).toHaveLength(1);

    expect(await revokePurchase({ orderId: order.id }, 'refunded')).toBe('revoked');
    const refunded = await purchasesOf(user.id);
    expect(refunded.filter((purchase) => purchase.status === 'completed').map((purchase) => purchase.id)).toEqual([
      ownedBefore.id,
    ]);
    expect(refunded.filter((purchase) => purchase.status === 'refunded')).toHaveLength(3);
  });

  it('suspends the grants in a dispute and restores them when the dispute is won', async () => {
    const { user, order } = await bundleBoughtByOwnerOfOne();
    await fulfilPayment({ paymentId: order.payment_id! });
    await revokePurchase({ orderId: order.id }, 'disputed');
    const completed = async () => (await purchasesOf(user.id)).filter((purchase) => purchase.status === 'completed').length;
    expect(await completed()).toBe(1);
    expect(await restoreDisputedPurchase({ orderId: order.id })).toBe('restored');
    expect(await completed()).toBe(4);
  });
});

describe('a bundle at checkout', () => {
  it('costs a signed-in owner of one course less by its share (a guest the full price), and its mail links every course', async () => {
    const { user, courses, bundle, ownedBefore, order } = await bundleBoughtByOwnerOfOne();
    const course = (await getActiveCourse(bundle.id, 'en'))!;
    expect(course.bundle).toEqual({ courseCount: 3, separateMinor: 1497, savingMinor: 497 });
    expect(course.bundleContents?.courses.map((item) => item.id)).toEqual(courses.map((item) => item.id));
    const owner = await priceForBuyer(course, user.id);
    expect(owner).toMatchObject({ ownedCourseIds: [courses[0]!.id], ownsAll: false });
    expect(owner.course.priceMinor).toBe(667);
    expect((await priceForBuyer(course, undefined)).course.priceMinor).toBe(1000);
    await db().updateTable('courses').set({ bundle_reduces_owned: false }).where('id', '=', bundle.id).execute();
    expect((await priceForBuyer((await getActiveCourse(bundle.id, 'en'))!, user.id)).course.priceMinor).toBe(1000);

    await fulfilPayment({ paymentId: order.payment_id!, amountMinor: 667, currency: 'USD' });
    const downloads = await bundleDownloads(order.id);
    expect(downloads.map((item) => item.title)).toEqual(['Course 1', 'Course 2', 'Course 3']);
    // The course owned before keeps its own download; the others get the grants' own.
    expect(downloads[0]!.downloadToken).toBe(ownedBefore.download_token);
    expect(new Set(downloads.map((item) => item.downloadToken)).size).toBe(3);
    const mail = await db()
      .selectFrom('mail_outbox')
      .select('render_with')
      .where('recipient', '=', order.email)
      .where('kind', '=', 'course-materials')
      .executeTakeFirstOrThrow();
    const { bundleCourses } = (mail.render_with as { props: { bundleCourses: { title: string; downloadUrl: string }[] } }).props;
    expect(bundleCourses.map((item) => item.downloadUrl.split('/').pop())).toEqual(downloads.map((item) => item.downloadToken));
  });
});

/** The bundle of `bundleBoughtByOwnerOfOne` told in Turkish too, and sold in euros ($10.00 in its own dollars). */
async function bundleInTurkishAndEuros(bundleId: string) {
  await db()
    .insertInto('bundle_texts')
    .values([
      { bundle_id: bundleId, language: 'en', title: 'All three', description: 'Three courses.' },
      { bundle_id: bundleId, language: 'tr', title: 'Üçü bir arada', description: 'Üç kurs birden.' },
    ])
    .execute();
  await db()
    .insertInto('bundle_prices')
    .values([
      { bundle_id: bundleId, currency: 'USD', price_minor: 1000 },
      { bundle_id: bundleId, currency: 'EUR', price_minor: 900 },
    ])
    .execute();
}

describe('a bundle in two languages and two currencies', () => {
  it("shows each language's text, and its own marked as such where a language has none", async () => {
    const { bundle } = await bundleBoughtByOwnerOfOne();
    // Before it has a Turkish text, a Turkish page shows its English one and says it is English.
    expect(await getActiveCourse(bundle.id, 'tr')).toMatchObject({ title: 'All three', textLanguage: 'en' });
    await bundleInTurkishAndEuros(bundle.id);
    expect(await getActiveCourse(bundle.id, 'tr')).toMatchObject({
      title: 'Üçü bir arada',
      description: 'Üç kurs birden.',
      textLanguage: 'tr',
    });
    expect(await getActiveCourse(bundle.id, 'en')).toMatchObject({ title: 'All three', textLanguage: 'en' });
  });

  it('charges a signed-in owner of one course in euros, lowered by its share, with no saving claimed in euros', async () => {
    const { user, bundle, order: earlier } = await bundleBoughtByOwnerOfOne();
    await bundleInTurkishAndEuros(bundle.id);
    // The saving compares like with like: in dollars (its courses' currency) only.
    expect((await getActiveCourse(bundle.id, 'en', 'USD'))?.bundle).toEqual({
      courseCount: 3,
      separateMinor: 1497,
      savingMinor: 497,
    });
    expect(await getActiveCourse(bundle.id, 'en', 'EUR')).toMatchObject({
      priceMinor: 900,
      currency: 'EUR',
      bundle: { courseCount: 3, separateMinor: null, savingMinor: null },
    });
    // A currency it is not sold in: its own price.
    expect(await getActiveCourse(bundle.id, 'en', 'TRY')).toMatchObject({ priceMinor: 1000, currency: 'USD' });

    const sessionUser = {
      id: user.id,
      email: earlier.email,
      fullName: 'Deniz Kaya',
      language: 'tr',
      role: 'user',
      sessionId: 'test',
    } as const;
    const started = await startCheckout(
      {
        courseId: bundle.id,
        currency: 'EUR',
        email: sessionUser.email,
        fullName: 'Deniz Kaya',
        language: 'tr',
        acceptTerms: true,
        waiveWithdrawal: true,
        sendNews: false,
        discountCode: '',
      },
      sessionUser,
      { clientIp: '203.0.113.41' },
    );
    expect(started).toMatchObject({ ok: true, value: { kind: 'redirect' } });
    // The owned course's share (4.99 of 14.97 apart) comes off the euro price: €9.00 × 2/3.
    const order = await db()
      .selectFrom('purchases')
      .selectAll()
      .where('course_id', '=', bundle.id)
      .where('status', '=', 'pending')
      .where('user_id', '=', user.id)
      .where('currency', '=', 'EUR')
      .executeTakeFirstOrThrow();
    expect(order.amount_minor).toBe(600);
    const session = stripe.sessions.get(order.payment_id!);
    expect(session).toMatchObject({ amount_total: 600, currency: 'eur' });

    // Paid: the receipt and the materials mail name it in the order's language, the amount in euros.
    expect(await fulfilPayment({ paymentId: order.payment_id!, amountMinor: 600, currency: 'EUR' })).toBe('fulfilled');
    const mail = await db()
      .selectFrom('mail_outbox')
      .select('render_with')
      .where('recipient', '=', order.email)
      .where('kind', '=', 'course-materials')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect((mail.render_with as { props: { courseTitle: string; amount: string } }).props).toMatchObject({
      courseTitle: 'Üçü bir arada',
      amount: '€6,00',
    });
    expect((await listOrders(user.id)).map((line) => line.courseTitle)).toContain('Üçü bir arada');
  });
});
