import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { makeCourse, makePurchase } from '../../support/factories.ts';

/** The account's wishlist over HTTP: only the owner's, only active courses not owned, merged from a browser's list. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

async function account() {
  const email = `wisher-${randomUUID().slice(0, 8)}@example.com`;
  const browser = await signedInBrowser(server, { role: 'user', email });
  const { id } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { browser, userId: id, email };
}

const idsOf = async (response: Response) => ((await response.json()) as { courseIds: string[] }).courseIds;

describe('the account wishlist', () => {
  it('is for the signed-in owner only', async () => {
    const course = await makeCourse();
    const guest = new Browser(server);
    expect((await guest.json('GET', '/api/account/wishlist')).status).toBe(401);
    expect((await guest.json('PUT', `/api/account/wishlist/${course.id}`)).status).toBe(401);
    expect((await guest.json('POST', '/api/account/wishlist', { courseIds: [course.id] })).status).toBe(401);
  });

  it('adds, merges a browser list once each, and removes; unknown and inactive courses never enter', async () => {
    const [first, second, third] = [await makeCourse(), await makeCourse(), await makeCourse()];
    const inactive = await makeCourse({ is_active: false });
    const { browser } = await account();
    expect(await idsOf(await browser.json('PUT', `/api/account/wishlist/${first.id}`))).toEqual([first.id]);
    const merged = await idsOf(
      await browser.json('POST', '/api/account/wishlist', { courseIds: [first.id, second.id, inactive.id, randomUUID()] }),
    );
    expect(merged.sort()).toEqual([first.id, second.id].sort());
    expect(await idsOf(await browser.json('DELETE', `/api/account/wishlist/${first.id}`))).toEqual([second.id]);
    expect(await idsOf(await browser.json('PUT', `/api/account/wishlist/${third.id}`))).toEqual([third.id, second.id]);
    const session = (await (await browser.request('/api/session')).json()) as { wishlist: string[] };
    expect(session.wishlist).toEqual([third.id, second.id]);
  });

  it('drops a course once it is bought', async () => {
    const course = await makeCourse();
    const { browser, userId, email } = await account();
    await browser.json('PUT', `/api/account/wishlist/${course.id}`);
    await makePurchase(course.id, { user_id: userId, email });
    expect(await idsOf(await browser.json('GET', '/api/account/wishlist'))).toEqual([]);
  });

  it('refuses malformed input with a 400 and keeps the list', async () => {
    const course = await makeCourse();
    const { browser } = await account();
    await browser.json('PUT', `/api/account/wishlist/${course.id}`);
    for (const body of [{}, { courseIds: 'x' }, { courseIds: ['not-a-uuid'] }, { courseIds: Array(201).fill(course.id) }]) {
      expect((await browser.json('POST', '/api/account/wishlist', body)).status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect((await browser.json('PUT', '/api/account/wishlist/<script>')).status).toBe(404);
    expect(await idsOf(await browser.json('GET', '/api/account/wishlist'))).toEqual([course.id]);
  });
});

describe('the wishlist page cards', () => {
  it('renders the asked courses in order with a remove button, escaped, and ignores the rest', async () => {
    const first = await makeCourse({ title: 'Second <b>saved</b>' });
    const second = await makeCourse({ title: 'First saved' });
    const response = await server.fetch(`/api/courses/cards?lang=tr&ids=${second.id},${first.id},nonsense,${randomUUID()}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html.indexOf('First saved')).toBeLessThan(html.indexOf('Second &lt;b&gt;saved&lt;/b&gt;'));
    expect(html.match(/data-wishlist-remove=/g)).toHaveLength(2);
    expect(html).toContain('İstek listesinden çıkar');
    expect(await (await server.fetch('/api/courses/cards?lang=en&ids=')).text()).not.toContain('<li');
  });
});
