import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { restoreDisputedPurchase, revokePurchase } from '../../../functions/orders/fulfilment.ts';
import { shortName } from '../../../functions/reviews/reviews.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { makeCourse, makePurchase } from '../../support/factories.ts';

/**
 * Reviews over HTTP on the built shop and real PostgreSQL: only buyers write them, one each; the
 * course page, the cards and the home page show the real average, escaped text, and nothing when
 * none counts; refunds and the admin's hiding take a review out.
 */
let server: TestServer;
let admin: Browser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInBrowser(server, { role: 'admin' });
});
afterAll(async () => {
  await server.stop();
});

async function buyer(courseId: string, fullName = 'Ayşe Kaya Yılmaz') {
  const email = `reviewer-${randomUUID().slice(0, 8)}@example.com`;
  const browser = await signedInBrowser(server, { role: 'user', email, fullName });
  const user = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const purchase = await makePurchase(courseId, { user_id: user.id, email });
  return { browser, purchase, userId: user.id };
}

const review = (browser: Browser, courseId: string, body: unknown) =>
  browser.json('PUT', `/api/account/reviews/${courseId}`, body);

/** The page once the purge announced by the last write has reached the cache. */
async function pageShowing(path: string, expected: string | RegExp): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        html = await (await server.fetch(path)).text();
        return html;
      },
      { timeout: 5000 },
    )
    .toMatch(expected);
  return html;
}

function jsonLd(html: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return JSON.parse(match![1]!) as Record<string, unknown>;
}

describe('who may review', () => {
  it('refuses the signed out, a non-buyer and a refunded buyer; takes one review per buyer and course', async () => {
    const course = await makeCourse({ title: `Reviewed ${randomUUID().slice(0, 6)}` });
    expect((await review(new Browser(server), course.id, { rating: 5 })).status).toBe(401);

    const stranger = await signedInBrowser(server, { role: 'user' });
    const refused = await review(stranger, course.id, { rating: 5 });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { message: 'reviews.onlyBuyers' } });

    const { browser, purchase } = await buyer(course.id);
    expect((await review(browser, course.id, { rating: 4, body: 'Useful.' })).status).toBe(200);
    expect((await review(browser, course.id, { rating: 2, body: 'Changed my mind.' })).status).toBe(200);
    const rows = await db().selectFrom('reviews').selectAll().where('course_id', '=', course.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 2, body: 'Changed my mind.' });
    expect(await (await browser.json('GET', `/api/account/reviews/${course.id}`)).json()).toMatchObject({
      review: { rating: 2, body: 'Changed my mind.', hidden: false },
    });

    await revokePurchase({ orderId: purchase.id }, 'refunded');
    expect((await review(browser, course.id, { rating: 5 })).status).toBe(409);
  });

  it('answers bad input with a field error and writes nothing', async () => {
    const course = await makeCourse();
    const { browser } = await buyer(course.id);
    for (const body of [{}, { rating: 0 }, { rating: 6 }, { rating: 'five' }, { rating: 3.5 }, { rating: null }]) {
      const response = await review(browser, course.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { fields: { rating: 'reviews.ratingRequired' } } });
    }
    const long = await review(browser, course.id, { rating: 3, body: 'x'.repeat(2001) });
    expect(await long.json()).toMatchObject({ error: { fields: { body: 'reviews.bodyTooLong' } } });
    expect((await review(browser, 'not-a-course', { rating: 3 })).status).toBe(404);
    expect((await review(browser, randomUUID(), { rating: 3 })).status).toBe(409);
    expect(await db().selectFrom('reviews').select('id').where('course_id', '=', course.id).execute()).toHaveLength(0);
  });

  it('lets the buyer delete their review', async () => {
    const course = await makeCourse();
    const { browser } = await buyer(course.id);
    await review(browser, course.id, { rating: 5 });
    expect((await browser.json('DELETE', `/api/account/reviews/${course.id}`)).status).toBe(200);
    expect((await browser.json('DELETE', `/api/account/reviews/${course.id}`)).status).toBe(404);
    expect((await browser.json('GET', `/api/account/reviews/${course.id}`)).status).toBe(404);
  });
});

describe('what readers see', () => {
  it('shows the real average and count, escaped text, and aggregateRating only with reviews', async () => {
    const course = await makeCourse({ title: `Average ${randomUUID().slice(0, 6)}` });
    const path = `/en/course/${course.id}`;
    const before = await (await server.fetch(path)).text();
    expect(before).toContain('No reviews yet');
    expect(jsonLd(before)).not.toHaveProperty('aggregateRating');

    const payloads = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "javascript:alert('x')"];
    for (const [index, body] of payloads.entries()) {
      const { browser } = await buyer(course.id, `Reader${index} Surname`);
      expect((await review(browser, course.id, { rating: [5, 4, 4][index], body })).status).toBe(200);
    }
    const html = await pageShowing(path, /4\.3<\/span>\/5/);
    expect(html).toContain('(3 reviews)');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x onerror');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Reader0 S.');
    expect(jsonLd(html)).toMatchObject({
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.3, reviewCount: 3, bestRating: 5 },
    });

    const turkish = await pageShowing(`/tr/course/${course.id}`, /4,3<\/span>\/5/);
    expect(turkish).toContain('(3 değerlendirme)');

    const api = (await (await server.fetch(`/api/courses?lang=en&search=${encodeURIComponent(course.title)}`)).json()) as {
      courses: { id: string; rating: unknown }[];
    };
    expect(api.courses.find((card) => card.id === course.id)?.rating).toEqual({ average: 4.3, count: 3 });
  });

  it("drops a refunded purchase's review and a hidden review from the average, and shows the shop's reply", async () => {
    const course = await makeCourse({ title: `Moderated ${randomUUID().slice(0, 6)}` });
    const path = `/en/course/${course.id}`;
    const first = await buyer(course.id, 'Kept Reviewer');
    const second = await buyer(course.id, 'Refunded Reviewer');
    const third = await buyer(course.id, 'Hidden Reviewer');
    await review(first.browser, course.id, { rating: 5, body: 'Kept' });
    await review(second.browser, course.id, { rating: 1, body: 'Refunded' });
    await review(third.browser, course.id, { rating: 2, body: 'Hidden' });
    await pageShowing(path, /\(3 reviews\)/);

    await revokePurchase({ orderId: second.purchase.id }, 'refunded');
    // The refund purges the cached page: the rating follows the money at once.
    await pageShowing(path, /\(2 reviews\)/);
    const { reviews } = (await (await admin.json('GET', `/api/admin/reviews?q=${encodeURIComponent(course.title)}`)).json()) as {
      reviews: { id: string; body: string; purchaseActive: boolean }[];
    };
    expect(reviews.map((row) => [row.body, row.purchaseActive]).sort()).toEqual([
      ['Hidden', true],
      ['Kept', true],
      ['Refunded', false],
    ]);
    const hidden = reviews.find((row) => row.body === 'Hidden')!;
    const kept = reviews.find((row) => row.body === 'Kept')!;

    const buyerTries = await first.browser.json('PATCH', `/api/admin/reviews/${hidden.id}`, { hidden: true });
    expect(buyerTries.status).toBe(403);
    expect((await admin.json('PATCH', `/api/admin/reviews/${hidden.id}`, { hidden: true })).status).toBe(200);
    expect((await admin.json('PATCH', `/api/admin/reviews/${kept.id}`, { reply: 'Thank you, <b>Kept</b>!' })).status).toBe(200);
    expect((await admin.json('PATCH', `/api/admin/reviews/${kept.id}`, { reply: 'x', hidden: false })).status).toBe(400);

    const html = await pageShowing(path, /Thank you, &lt;b&gt;Kept&lt;\/b&gt;!/);
    expect(html).toContain('5.0</span>/5');
    expect(html).toContain('(1 review)');
    expect(html).not.toContain('>Refunded<');
    expect(html).not.toContain('>Hidden<');
    expect(await (await third.browser.json('GET', `/api/account/reviews/${course.id}`)).json()).toMatchObject({
      review: { hidden: true },
    });
  });

  it("takes a disputed purchase's review out of the cached rating and brings it back when the dispute is won", async () => {
    const course = await makeCourse();
    const path = `/en/course/${course.id}`;
    const kept = await buyer(course.id, 'Calm Reviewer');
    const disputing = await buyer(course.id, 'Disputing Reviewer');
    await review(kept.browser, course.id, { rating: 4, body: 'Fine' });
    await review(disputing.browser, course.id, { rating: 2, body: 'Meh' });
    await pageShowing(path, /\(2 reviews\)/);
    await revokePurchase({ orderId: disputing.purchase.id }, 'disputed');
    expect(await pageShowing(path, /\(1 review\)/)).toContain('4.0</span>/5');
    expect(await restoreDisputedPurchase({ orderId: disputing.purchase.id })).toBe('restored');
    expect(await pageShowing(path, /\(2 reviews\)/)).toContain('3.0</span>/5');
  });

  it('pages the reviews five at a time, newest first', async () => {
    const course = await makeCourse();
    for (let index = 0; index < 6; index++) {
      const { browser } = await buyer(course.id, `Reviewer${index} Pager`);
      await review(browser, course.id, { rating: 4, body: `Review number ${index}` });
    }
    const first = await pageShowing(`/en/course/${course.id}`, /\(6 reviews\)/);
    expect(first).toContain('Review number 5');
    expect(first).not.toContain('Review number 0');
    expect(first).toContain('Page 1 of 2');
    const second = await (await server.fetch(`/en/course/${course.id}?reviews=2`)).text();
    expect(second).toContain('Review number 0');
    expect(second).not.toContain('Review number 5');
    expect((await server.fetch(`/en/course/${course.id}?reviews=<x>`)).status).toBe(200);
  });

  it('fills the home page\'s "What buyers say" with written reviews of courses in the page\'s language', async () => {
    const turkishCourse = await makeCourse({ language: 'tr', title: `Türkçe kurs ${randomUUID().slice(0, 6)}` });
    const { browser } = await buyer(turkishCourse.id, 'Işıl Öztürk');
    await review(browser, turkishCourse.id, { rating: 5, body: 'Çok işime yaradı, teşekkürler!' });
    const home = await pageShowing('/tr', /Çok işime yaradı, teşekkürler!/);
    expect(home).toContain('Satın alanlar ne diyor');
    expect(home).toContain('Işıl Ö.');
    const english = await (await server.fetch('/en')).text();
    expect(english).not.toContain('Çok işime yaradı');
  });
});

describe('shortName', () => {
  it("keeps the first name and the last name's initial, in Turkish case", () => {
    expect(shortName('Ayşe Kaya Yılmaz')).toBe('Ayşe Y.');
    expect(shortName('  deniz  ırmak ')).toBe('deniz I.');
    expect(shortName('Cher')).toBe('Cher');
    expect(shortName('')).toBe('');
  });
});
