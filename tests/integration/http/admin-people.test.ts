import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsReport, periodRange, type AnalyticsReport } from '../../../functions/orders/admin-analytics.ts';
import { funnelRows } from '../../../functions/funnel/report.ts';
import { listUsers } from '../../../functions/admin/users.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { queueMail } from '../../../functions/mail/outbox.ts';
import { runPeriodicJob } from '../../../functions/jobs/periodic.ts';
import { db } from '../../../functions/db/database.ts';
import type { AnalyticsPeriod } from '../../../src/lib/admin/analytics.schema.ts';
import { formatMoney } from '../../../src/lib/money.ts';
import { makeCourse, makePurchase } from '../../support/factories.ts';
import { statementsOf } from '../../support/statements.ts';
import { signedEvent, startFakeStripe } from '../../support/fake-stripe.ts';
import { Browser, startTestServer, type TestServer } from '../../support/test-server.ts';

let server: TestServer;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let admin: Browser;
let adminId: string;
let buyer: Browser;
const ADMIN_EMAIL = `people-admin-${randomUUID().slice(0, 8)}@example.com`;
const PASSWORD = 'people admin password 1';

beforeAll(async () => {
  stripe = await startFakeStripe();
  server = await startTestServer({
    ...stripe.settings,
  });
  adminId = (await ensureUser(db(), { email: ADMIN_EMAIL, password: PASSWORD, fullName: 'People Admin', role: 'admin' })).id;
  admin = new Browser(server);
  expect((await admin.postJson('/api/auth/sign-in/email', { email: ADMIN_EMAIL, password: PASSWORD })).status).toBe(200);
  const buyerEmail = `people-buyer-${randomUUID().slice(0, 8)}@example.com`;
  await ensureUser(db(), { email: buyerEmail, password: PASSWORD, fullName: 'People Buyer', role: 'user' });
  buyer = new Browser(server);
  expect((await buyer.postJson('/api/auth/sign-in/email', { email: buyerEmail, password: PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  await stripe?.stop();
});

const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** A user row straight in the table: listing users needs no password. */
async function makeUser(overrides: { email?: string; fullName?: string; createdAt?: Date } = {}) {
  return db()
    .insertInto('users')
    .values({
      full_name: overrides.fullName ?? 'Listed User',
      email: overrides.email ?? `${unique('user')}@example.com`,
      email_verified: false,
      ...(overrides.createdAt ? { created_at: overrides.createdAt } : {}),
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}

const sale = (
  courseId: string,
  userId: string,
  amountMinor: number,
  currency: string,
  completedAt = new Date(),
  extra: Record<string, unknown> = {},
) =>
  makePurchase(courseId, {
    user_id: userId,
    email: `${unique('sale')}@example.com`,
    provider: amountMinor ? 'demo' : 'free',
    payment_id: `${amountMinor ? 'demo' : 'free'}_${randomUUID()}`,
    amount_minor: amountMinor,
    currency,
    completed_at: completedAt,
    ...extra,
  });

/** A minimal RFC 4180 reader, to check cells exactly as a spreadsheet would see them. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted && char === '"' && text[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (quoted && char === '"') {
      quoted = false;
    } else if (quoted) {
      cell += char;
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else {
      cell += char;
    }
  }
  return rows;
}

describe('authorization', () => {
  const someId = randomUUID();
  const endpoints: [string, string, RequestInit?][] = [
    ['GET', '/api/admin/users'],
    [
      'PATCH',
      `/api/admin/users/${someId}/role`,
      { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ role: 'admin' }) },
    ],
    ['GET', '/api/admin/analytics?period=1year'],
    ['GET', '/api/admin/analytics/export?period=1year'],
    ['GET', '/api/admin/analytics/funnel?period=1year'],
    ['POST', `/api/admin/purchases/${someId}/refund`, { method: 'POST' }],
    ['GET', '/api/admin/logs'],
    ['DELETE', '/api/admin/logs', { method: 'DELETE' }],
    ['POST', '/api/admin/mail/resend', { method: 'POST' }],
  ];

  it('answers 401 to anonymous visitors and 403 to buyers on every endpoint, and changes nothing', async () => {
    await db()
      .insertInto('client_logs')
      .values({ level: 'error', message: 'kept while unauthorised callers try to clear', client_address: '192.0.2.1' })
      .execute();
    for (const [method, path, init] of endpoints) {
      expect((await new Browser(server).request(path, init)).status, `${method} ${path} anonymous`).toBe(401);
      expect((await buyer.request(path, init)).status, `${method} ${path} buyer`).toBe(403);
    }
    expect(
      await db()
        .selectFrom('client_logs')
        .select('id')
        .where('message', '=', 'kept while unauthorised callers try to clear')
        .executeTakeFirst(),
    ).toBeDefined();
  });

  it('sends buyers on any admin page to their dashboard and anonymous visitors to sign in', async () => {
    for (const path of [
      '/en/admin',
      '/en/admin/users',
      '/en/admin/analytics',
      '/tr/admin/users?q=x',
      '/tr/admin/analytics?period=1year',
    ]) {
      const lang = path.slice(1, 3);
      expect((await buyer.request(path)).headers.get('location'), path).toBe(`/${lang}/dashboard`);
      expect((await new Browser(server).request(path)).headers.get('location'), path).toMatch(
        new RegExp(`^/${lang}/login\\?next=`),
      );
      expect((await admin.request(path)).status, path).toBe(200);
    }
  });
});

describe('users', () => {
  it('lists every user with purchase count and spend per currency from ONE query, whatever the number of users', async () => {
    const [usdA, usdB, eur, tryCourse] = await Promise.all([
      makeCourse({ title: 'Users USD A', price_minor: 499, currency: 'USD' }),
      makeCourse({ title: 'Users USD B', price_minor: 1000, currency: 'USD' }),
      makeCourse({ title: 'Users EUR', price_minor: 450, currency: 'EUR' }),
      makeCourse({ title: 'Users TRY', price_minor: 14900, currency: 'TRY' }),
    ]);
    const prefix = unique('many');
    const expected = new Map<string, { purchaseCount: number; spent: { currency: string; amountMinor: number }[] }>();
    for (let index = 0; index < 30; index++) {
      const user = await makeUser({ email: `${prefix}-${String(index).padStart(2, '0')}@example.com` });
      if (index % 4 === 0) {
        await sale(usdA.id, user.id, 499, 'USD');
        await sale(usdB.id, user.id, 1000, 'USD');
        await sale(eur.id, user.id, 450, 'EUR');
        expected.set(user.email, {
          purchaseCount: 3,
          spent: [
            { currency: 'EUR', amountMinor: 450 },
            { currency: 'USD', amountMinor: 1499 },
          ],
        });
      } else if (index % 4 === 1) {
        await sale(tryCourse.id, user.id, 14900, 'TRY');
        // Refunded and pending purchases are neither counted nor spent.
        await sale(usdA.id, user.id, 499, 'USD', new Date(), { status: 'refunded' });
        await sale(usdB.id, user.id, 1000, 'USD', new Date(), { status: 'pending', download_token: null, completed_at: null });
        expected.set(user.email, { purchaseCount: 1, spent: [{ currency: 'TRY', amountMinor: 14900 }] });
      } else if (index % 4 === 2) {
        await sale(usdA.id, user.id, 0, 'USD');
        expected.set(user.email, { purchaseCount: 1, spent: [] });
      } else {
        expected.set(user.email, { purchaseCount: 0, spent: [] });
      }
    }

    // Count the statements the listing sends, on a handle that logs every query.
    const { result: listed, statements } = await statementsOf(() => listUsers(prefix));
    expect(statements).toHaveLength(1);
    expect(listed.total).toBe(30);
    expect(listed.users).toHaveLength(30);
    for (const user of listed.users) {
      const { purchaseCount, spent } = expected.get(user.email)!;
      expect({ email: user.email, purchaseCount: user.purchaseCount, spent: user.spent }).toEqual({
        email: user.email,
        purchaseCount,
        spent,
      });
    }

    // The endpoint and the page show the same, each money total in its own currency.
    const response = await admin.request(`/api/admin/users?q=${encodeURIComponent(prefix)}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { users: { email: string; purchaseCount: number }[]; total: number };
    expect(body.total).toBe(30);
    expect(body.users.find((user) => user.email === `${prefix}-00@example.com`)?.purchaseCount).toBe(3);
    const page = await (await admin.request(`/en/admin/users?q=${encodeURIComponent(`${prefix}-00`)}`)).text();
    expect(page).toContain('$14.99 · €4.50');
    const turkish = await (await admin.request(`/tr/admin/users?q=${encodeURIComponent(`${prefix}-01`)}`)).text();
    expect(turkish).toContain('₺149,00');
  });

  it('searches names and e-mails case- and Turkish-insensitively, treating % and _ literally', async () => {
    const user = await makeUser({ fullName: 'Işıl Çağlar', email: `${unique('isil')}@example.com` });
    expect((await listUsers('ISIL CAG')).users.map((row) => row.id)).toContain(user.id);
    expect((await listUsers('işıl çağ')).users.map((row) => row.id)).toContain(user.id);
    expect((await listUsers(user.email.toUpperCase())).users.map((row) => row.id)).toEqual([user.id]);
    expect((await listUsers('%')).users).toEqual([]);
    expect((await listUsers('_')).users).toEqual([]);
    expect((await admin.request('/api/admin/users?q=%00%25')).status).toBe(200);
  });

  it('counts total users, buyers (a completed purchase) and users new in the last 30 days', async () => {
    const stats = async () =>
      (
        (await (await admin.request('/api/admin/users?q=nobody-matches-this')).json()) as {
          stats: { total: number; buyers: number; newLast30Days: number };
        }
      ).stats;
    const before = await stats();
    const course = await makeCourse({ price_minor: 300 });
    const fresh = await makeUser();
    await makeUser({ createdAt: new Date(Date.now() - 40 * 24 * 60 * 60 * 1000) });
    const refundedOnly = await makeUser();
    await sale(course.id, fresh.id, 300, 'USD');
    await sale(course.id, refundedOnly.id, 300, 'USD', new Date(), { status: 'refunded' });
    expect(await stats()).toEqual({
      total: before.total + 3,
      buyers: before.buyers + 1,
      newLast30Days: before.newLast30Days + 2,
    });
  });

  /** A row's button as the server renders it: the verb, then the row's address for screen readers. */
  const roleButton = (label: string, email: string) =>
    new RegExp(`>${label}<span class="sr-only"> (<!-- -->)?${email.replace(/[.+]/g, '\\$&')}</span></button>`);

  it('promotes and demotes with effect on the next request, and never changes the acting admin', async () => {
    const email = `${unique('promoted')}@example.com`;
    const { id } = await ensureUser(db(), { email, password: PASSWORD, fullName: 'To Promote', role: 'user' });
    const other = new Browser(server);
    await other.postJson('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect((await other.request('/api/admin/users')).status).toBe(403);

    const patch = (target: string, body: unknown) =>
      admin.request(`/api/admin/users/${target}/role`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const promoted = await patch(id, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toEqual({ id, role: 'admin' });
    expect((await other.request('/api/admin/users')).status).toBe(200);
    expect(await (await admin.request(`/en/admin/users?q=${encodeURIComponent(email)}`)).text()).toMatch(
      roleButton('Demote to user', email),
    );

    expect((await patch(id, { role: 'user' })).status).toBe(200);
    expect((await db().selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role).toBe('user');
    expect((await other.request('/api/admin/users')).status).toBe(403);

    const self = await patch(adminId, { role: 'user' });
    expect(self.status).toBe(400);
    expect(await self.json()).toMatchObject({ error: { code: 'own_role', message: 'admin.people.users.ownRole' } });
    expect((await db().selectFrom('users').select('role').where('id', '=', adminId).executeTakeFirstOrThrow()).role).toBe(
      'admin',
    );
    const ownRow = await (await admin.request(`/en/admin/users?q=${encodeURIComponent(ADMIN_EMAIL)}`)).text();
    expect(ownRow).toContain(ADMIN_EMAIL);
    expect(ownRow).toContain('(you)');
    expect(ownRow).not.toMatch(roleButton('Demote to user', ADMIN_EMAIL));

    const invalid = await patch(id, { role: 'owner' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { fields: { role: 'admin.people.users.roleInvalid' } } });
    expect((await patch(randomUUID(), { role: 'admin' })).status).toBe(404);
    expect((await patch('not-a-uuid', { role: 'admin' })).status).toBe(404);
    expect(
      (
        await admin.request(`/api/admin/users/${id}/role`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: '{',
        })
      ).status,
    ).toBe(400);
  });
});

describe('analytics', () => {
  const report = async (period: AnalyticsPeriod): Promise<AnalyticsReport> => {
    const response = await admin.request(`/api/admin/analytics?period=${period}`);
    expect(response.status).toBe(200);
    return (await response.json()) as AnalyticsReport;
  };
  const salesIn = (r: AnalyticsReport) => ({ sales: r.sales, paid: r.paidSales, free: r.freeSales, buyers: r.buyers });
  const revenueOf = (r: AnalyticsReport, currency: string) =>
    r.revenue.find((row) => row.currency === currency)?.amountMinor ?? 0;
  const monthSales = (r: AnalyticsReport, month: string) => r.monthly.find((row) => row.month === month)?.sales ?? 0;
  const monthOf = (date: Date) => date.toISOString().slice(0, 7);

  it('counts each period from the first instant of its first month, per currency, leaving refunded sales out', async () => {
    const periods = ['1month', '3months', '6months', '1year'] as const;
    const before = Object.fromEntries(await Promise.all(periods.map(async (period) => [period, await report(period)] as const)));
    const now = new Date();
    const thisMonth = periodRange('1month', now).start;
    const threeMonths = periodRange('3months', now).start;
    const oneYear = periodRange('1year', now).start;
    const course = await makeCourse({ title: 'Analytics boundaries', price_minor: 1000 });
    const buyerFor = async () => (await makeUser()).id;
    const recent = new Date(Math.max(thisMonth.getTime(), now.getTime() - 60_000));
    await sale(course.id, await buyerFor(), 1000, 'USD', recent);
    await sale(course.id, await buyerFor(), 0, 'USD', recent);
    await sale(course.id, await buyerFor(), 450, 'EUR', threeMonths);
    await sale(course.id, await buyerFor(), 14900, 'TRY', new Date(threeMonths.getTime() - 1));
    await sale(course.id, await buyerFor(), 500, 'USD', oneYear);
    await sale(course.id, await buyerFor(), 777, 'USD', new Date(oneYear.getTime() - 1));
    await sale(course.id, await buyerFor(), 2500, 'EUR', new Date(), { status: 'refunded' });
    const after = Object.fromEntries(await Promise.all(periods.map(async (period) => [period, await report(period)] as const)));
    const delta = (period: AnalyticsPeriod) => {
      const [a, b] = [after[period]!, before[period]!];
      return {
        ...Object.fromEntries(
          Object.entries(salesIn(a)).map(([key, value]) => [key, value - salesIn(b)[key as keyof ReturnType<typeof salesIn>]]),
        ),
        USD: revenueOf(a, 'USD') - revenueOf(b, 'USD'),
        EUR: revenueOf(a, 'EUR') - revenueOf(b, 'EUR'),
        TRY: revenueOf(a, 'TRY') - revenueOf(b, 'TRY'),
      };
    };
    expect(delta('1month')).toEqual({ sales: 2, paid: 1, free: 1, buyers: 2, USD: 1000, EUR: 0, TRY: 0 });
    expect(delta('3months')).toEqual({ sales: 3, paid: 2, free: 1, buyers: 3, USD: 1000, EUR: 450, TRY: 0 });
    expect(delta('6months')).toEqual({ sales: 4, paid: 3, free: 1, buyers: 4, USD: 1000, EUR: 450, TRY: 14900 });
    expect(delta('1year')).toEqual({ sales: 5, paid: 4, free: 1, buyers: 5, USD: 1500, EUR: 450, TRY: 14900 });

    const year = after['1year']!;
    expect(year.start).toBe(oneYear.toISOString());
    expect(year.monthly.map((row) => row.month)).toEqual(periodRange('1year', now).months);
    expect(monthSales(year, monthOf(oneYear)) - monthSales(before['1year']!, monthOf(oneYear))).toBe(1);
    expect(monthSales(year, monthOf(threeMonths)) - monthSales(before['1year']!, monthOf(threeMonths))).toBe(1);
    const monthBefore = monthOf(new Date(threeMonths.getTime() - 1));
    expect(monthSales(year, monthBefore) - monthSales(before['1year']!, monthBefore)).toBe(1);
    expect(after['3months']!.monthly.map((row) => row.month)).toEqual(periodRange('3months', now).months);
    // Average order value: revenue ÷ paid sales in each currency, in whole minor units.
    for (const period of periods) {
      const r = after[period]!;
      expect(r.averageOrder).toEqual(
        r.totals
          .filter((row) => row.paidSales > 0)
          .map((row) => ({ currency: row.currency, amountMinor: Math.round(row.revenueMinor / row.paidSales) })),
      );
      expect(r.monthly.reduce((sum, row) => sum + row.sales, 0)).toBe(r.sales);
    }
    // The refunded sale is the newest transaction, shown with its status.
    expect(after['1month']!.recentTransactions[0]).toMatchObject({ amountMinor: 2500, currency: 'EUR', status: 'refunded' });
    expect(after['1month']!.recentTransactions.length).toBeLessThanOrEqual(10);
  });

  it('ranks top courses by sales (10 computed, 5 shown) with revenue per currency', async () => {
    const top = await makeCourse({ title: 'Analytics bestseller', price_minor: 499 });
    const now = new Date();
    const at = new Date(Math.max(periodRange('1month', now).start.getTime(), now.getTime() - 2 * 60 * 60 * 1000));
    // More sales than any other course of this file gets this month.
    for (let index = 0; index < 20; index++) await sale(top.id, (await makeUser()).id, 499, 'USD', at);
    await sale(top.id, (await makeUser()).id, 450, 'EUR', at);
    const r = await analyticsReport('1month');
    expect(r.topCourses[0]).toEqual({
      courseId: top.id,
      title: 'Analytics bestseller',
      sales: 21,
      revenue: [
        { currency: 'EUR', amountMinor: 450 },
        { currency: 'USD', amountMinor: 20 * 499 },
      ],
    });
    expect(r.topCourses.length).toBeLessThanOrEqual(10);
    const page = await (await admin.request('/en/admin/analytics?period=1month')).text();
    expect(page).toContain('Analytics bestseller');
    expect(page).toContain('$99.80 · €4.50');
    expect(page).toMatch(/<svg[^>]*role="img"/);
    expect(page).toContain('<title id="monthly-sales-chart-title">');
    expect(page).toContain('<desc id="monthly-sales-chart-desc">');
    expect(page).toContain('<option value="1month" selected>');
  });

  it('falls back to 3 months for an unknown period', async () => {
    expect((await report('forever' as AnalyticsPeriod)).period).toBe('3months');
    expect(await (await admin.request('/en/admin/analytics?period=forever')).text()).toContain(
      '<option value="3months" selected>',
    );
  });

  it("exports the period's sales as CSV: escaped, formula cells neutralised, other periods left out", async () => {
    const course = await makeCourse({ title: '=HYPERLINK("http://evil.example","Free money"), now' });
    const user = await makeUser();
    const now = new Date();
    const threeMonths = periodRange('3months', now).start;
    const inside = await sale(
      course.id,
      user.id,
      1234,
      'EUR',
      new Date(Math.max(threeMonths.getTime(), now.getTime() - 60_000)),
      { full_name: '+Ayşe "Ace" Yılmaz', email: '@attacker.example' },
    );
    const outside = await sale(course.id, (await makeUser()).id, 999, 'TRY', new Date(threeMonths.getTime() - 1), {
      full_name: '-2+3',
    });

    const response = await admin.request('/api/admin/analytics/export?period=3months');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="sales-3months-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get('cache-control')).toContain('no-store');
    const bytes = Buffer.from(await response.arrayBuffer());
    // A UTF-8 byte-order mark first, so spreadsheets read Turkish letters right.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'completed_at',
      'order_id',
      'receipt',
      'course',
      'buyer_name',
      'buyer_email',
      'amount',
      'discount',
      'discount_code',
      'currency',
      'status',
      'provider',
    ]);
    const row = rows.find((cells) => cells[1] === inside.id);
    expect(row).toEqual([
      inside.completed_at!.toISOString(),
      inside.id,
      '',
      `'=HYPERLINK("http://evil.example","Free money"), now`,
      `'+Ayşe "Ace" Yılmaz`,
      "'@attacker.example",
      '12.34',
      '0.00',
      '',
      'EUR',
      'completed',
      'demo',
    ]);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""Free money""), now"`);
    expect(rows.some((cells) => cells[1] === outside.id)).toBe(false);
    for (const cells of rows.slice(1)) for (const cell of cells) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);

    const year = parseCsv(await (await admin.request('/api/admin/analytics/export?period=1year')).text());
    expect(year.find((cells) => cells[1] === outside.id)?.[4]).toBe("'-2+3");
  });
});

describe('the funnel', () => {
  const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0 Safari/537.36';
  const view = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers: { 'user-agent': CHROME, accept: 'text/html,*/*;q=0.8', ...headers } });

  it('counts course page views served from the page cache, by source, leaves bots out, and follows a tagged view to checkout and payment', async () => {
    const course = await makeCourse({ title: unique('Funnel course'), price_minor: 0 });
    const tagged = `/en/course/${course.id}?utm_source=Newsletter&utm_medium=email&utm_campaign=spring`;
    for (let index = 0; index < 3; index++) expect((await view(tagged)).status).toBe(200);
    // The same page, untagged, from another site: one cached page, another source.
    expect((await view(`/tr/course/${course.id}`, { referer: 'https://news.example.com/post?id=1' })).status).toBe(200);
    // Not people: a crawler, a client that does not ask for HTML, a prefetch, and a course that does not exist.
    await view(tagged, { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    await view(tagged, { 'user-agent': 'curl/8.5.0', accept: '*/*' });
    await view(tagged, { 'sec-purpose': 'prefetch' });
    await view(`/en/course/${randomUUID()}`);

    const checkout = await buyer.request('/api/checkout', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        referer: `${server.url}/en/checkout/${course.id}?utm_source=newsletter&utm_medium=email&utm_campaign=spring`,
      },
      body: JSON.stringify({
        acceptTerms: true,
        waiveWithdrawal: true,
        courseId: course.id,
        email: `${unique('funnel')}@example.com`,
        fullName: 'Funnel Buyer',
        language: 'en',
      }),
    });
    expect(checkout.status, await checkout.clone().text()).toBe(200);

    // Each instance adds its counts every JOBS_INTERVAL_MS (2 s here).
    const deadline = Date.now() + 15_000;
    let rows = await funnelRows('1month');
    while (
      rows.filter((row) => row.courseId === course.id).reduce((sum, row) => sum + row.views, 0) < 4 &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      rows = await funnelRows('1month');
    }
    const ours = rows
      .filter((row) => row.courseId === course.id)
      .map(({ utmSource, utmMedium, utmCampaign, referrerHost, views, checkouts, paid }) => ({
        ...{ utmSource, utmMedium, utmCampaign, referrerHost },
        ...{ views, checkouts, paid },
      }));
    expect(ours).toEqual(
      expect.arrayContaining([
        { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring', referrerHost: '', views: 3, checkouts: 1, paid: 1 },
        { utmSource: '', utmMedium: '', utmCampaign: '', referrerHost: 'news.example.com', views: 1, checkouts: 0, paid: 0 },
      ]),
    );
    expect(ours).toHaveLength(2);
    expect(
      await db()
        .selectFrom('funnel_views')
        .select('course_id')
        .where(
          'course_id',
          'not in',
          (await db().selectFrom('courses').select('id').execute()).map((row) => row.id),
        )
        .execute(),
    ).toEqual([]);

    const csv = await (await admin.request('/api/admin/analytics/funnel?period=1month')).text();
    expect(csv).toContain(`${course.id},${course.title},newsletter,email,spring,,3,1,1,33.3,100`);
    const page = await (await admin.request('/en/admin/analytics?period=1month')).text();
    expect(page).toContain('data-testid="funnel-table"');
    expect(page).toContain(course.title);
  });
});

describe('refunds', () => {
  const refund = (id: string) => admin.request(`/api/admin/purchases/${id}/refund`, { method: 'POST' });
  const statusOf = async (id: string) =>
    await db().selectFrom('purchases').select(['status', 'refund_requested_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const downloadStatus = async (id: string) => {
    const { download_token } = await db()
      .selectFrom('purchases')
      .select('download_token')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const response = await server.fetch(`/api/downloads/${download_token}`);
    // A link that no longer opens leads to the page that says why.
    return response.status === 303
      ? new URL(response.headers.get('location')!, server.url).searchParams.get('reason')
      : response.status;
  };

  it('revokes a demo sale at once: refunded everywhere, link dead, a second refund refused', async () => {
    const course = await makeCourse({ title: 'Demo refund course', price_minor: 799 });
    const purchase = await sale(course.id, (await makeUser()).id, 799, 'USD');
    expect(await downloadStatus(purchase.id)).toBe(302);
    const response = await refund(purchase.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: purchase.id, status: 'refunded' });
    expect((await statusOf(purchase.id)).status).toBe('refunded');
    expect(await downloadStatus(purchase.id)).toBe('revoked');
    const again = await refund(purchase.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { message: 'admin.people.refund.notCompleted' } });
    const r = await analyticsReport('1month');
    expect(r.recentTransactions.find((row) => row.id === purchase.id)?.status).toBe('refunded');
  });

  it('refuses free enrolments, unknown and malformed ids', async () => {
    const course = await makeCourse({ price_minor: 0 });
    const free = await sale(course.id, (await makeUser()).id, 0, 'USD');
    const response = await refund(free.id);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'free', message: 'admin.people.refund.free' } });
    expect((await statusOf(free.id)).status).toBe('completed');
    expect((await refund(randomUUID())).status).toBe(404);
    expect((await refund('123')).status).toBe(404);
  });

  it('Stripe (against the local HTTP fake of the Stripe API): asks Stripe once with an idempotency key, and a signed charge.refunded webhook then revokes access', async () => {
    const course = await makeCourse({ title: 'Stripe refund course', price_minor: 1999, currency: 'EUR' });
    const email = `${unique('stripe-buyer')}@example.com`;
    const checkout = await new Browser(server).postJson('/api/checkout', {
      acceptTerms: true,
      waiveWithdrawal: true,
      courseId: course.id,
      email,
      fullName: 'Stripe Buyer',
      language: 'en',
    });
    expect(checkout.status).toBe(200);
    const sessionId = ((await checkout.json()) as { redirectUrl: string }).redirectUrl.split('/').pop()!;
    const order = await db().selectFrom('purchases').select('id').where('payment_id', '=', sessionId).executeTakeFirstOrThrow();
    const paymentIntent = stripe.pay(sessionId, order.id);
    const completed = signedEvent({
      id: `evt_${randomUUID()}`,
      type: 'checkout.session.completed',
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          payment_status: 'paid',
          amount_total: 1999,
          currency: 'eur',
          metadata: { order_id: order.id },
          payment_intent: paymentIntent,
        },
      },
    });
    const deliver = (event: ReturnType<typeof signedEvent>) =>
      server.fetch('/api/stripe/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
        body: event.payload,
      });
    expect((await deliver(completed)).status).toBe(200);
    expect((await statusOf(order.id)).status).toBe('completed');

    const response = await refund(order.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: order.id, status: 'refund_requested' });
    const refunds = stripe.requests.filter(
      (request) =>
        request.method === 'POST' && request.path === '/v1/refunds' && request.body.get('payment_intent') === paymentIntent,
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.headers['idempotency-key']).toBe(`refund-${order.id}`);
    // Requested, not yet confirmed: access stays until Stripe says the money went back.
    const requested = await statusOf(order.id);
    expect(requested.status).toBe('completed');
    expect(requested.refund_requested_at).not.toBeNull();
    expect(await downloadStatus(order.id)).toBe(302);
    expect((await analyticsReport('1month')).recentTransactions.find((row) => row.id === order.id)?.status).toBe(
      'refund_requested',
    );
    const twice = await refund(order.id);
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ error: { message: 'admin.people.refund.alreadyRequested' } });
    expect(
      stripe.requests.filter((request) => request.path === '/v1/refunds' && request.body.get('payment_intent') === paymentIntent),
    ).toHaveLength(1);

    const refunded = signedEvent({
      id: `evt_${randomUUID()}`,
      type: 'charge.refunded',
      data: {
        object: { id: `ch_${randomUUID()}`, object: 'charge', refunded: true, payment_intent: paymentIntent, metadata: {} },
      },
    });
    expect((await deliver(refunded)).status).toBe(200);
    expect((await statusOf(order.id)).status).toBe('refunded');
    expect(await downloadStatus(order.id)).toBe('revoked');
    const overview = await (await admin.request('/en/admin')).text();
    const row = overview.match(/<tr>(?:(?!<\/tr>).)*Stripe refund course(?:(?!<\/tr>).)*<\/tr>/s)?.[0] ?? '';
    expect(row).toContain('Refunded');
    expect(row).not.toContain('>Refund<');
  });

  it('refuses a Stripe sale with no PaymentIntent to refund, without calling Stripe', async () => {
    const course = await makeCourse({ price_minor: 500 });
    const purchase = await sale(course.id, (await makeUser()).id, 500, 'USD', new Date(), {
      provider: 'stripe',
      payment_id: `cs_test_${randomUUID()}`,
    });
    const calls = stripe.requests.length;
    const response = await refund(purchase.id);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { message: 'admin.people.refund.noPaymentIntent' } });
    expect(stripe.requests.length).toBe(calls);
  });
});

describe('overview', () => {
  it('shows counts, revenue per currency (never summed) and the 5 most recent sales', async () => {
    const html = await (await admin.request('/en/admin')).text();
    const { rows } = await sql<{
      currency: string;
      revenue: number;
    }>`SELECT currency, sum(amount_minor)::int AS revenue FROM purchases WHERE status = 'completed' AND amount_minor > 0 GROUP BY currency`.execute(
      db(),
    );
    const card = html.slice(html.indexOf('data-testid="revenue-card"'), html.indexOf('data-testid="sales-card"'));
    for (const row of rows) {
      // The shop's one money format (its own unit test says how each currency reads).
      expect(card, row.currency).toContain(formatMoney(row.revenue, row.currency, 'en'));
    }
    expect(card).toContain(' · ');
    const turkish = await (await admin.request('/tr/admin')).text();
    expect(turkish).toContain('Gelir');
    expect(turkish).toContain('Hata ayıklama paneli');
    expect(turkish).toContain('Uygulama günlükleri');
  });

  it('shows mail the mail server keeps refusing, in both languages, and sends it again on request', async () => {
    const refused = { attempts: 40, last_error: '550 5.7.1 Relaying denied', next_attempt_at: new Date(Date.now() + 3_600_000) };
    // Queued and marked refused in one transaction: the server's worker never sees it ready to send.
    const id = await db()
      .transaction()
      .execute(async (trx) => {
        const queued = await queueMail(trx, {
          to: 'refused@example.com',
          subject: 'Held',
          html: '<p>Held</p>',
          text: 'Held',
          language: 'en',
          kind: 'test',
        });
        await trx.updateTable('mail_outbox').set(refused).where('id', '=', queued).execute();
        return queued;
      });
    const english = await (await admin.request('/en/admin')).text();
    expect(english).toMatch(/1 e-mails have not gone out[^<]*550 5\.7\.1 Relaying denied/);
    expect(english).toContain('Send them now');
    expect(await (await admin.request('/tr/admin')).text()).toMatch(/1 e-posta gönderilemedi[^<]*550 5\.7\.1 Relaying denied/);

    const resend = await admin.postJson('/api/admin/mail/resend', {});
    expect(resend.status).toBe(200);
    expect(await resend.json()).toEqual({ resent: 1 });
    // The server's worker (the dev mailbox here) takes it at its next round (a second apart; a few on a busy machine).
    await expect
      .poll(
        async () => (await db().selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
        { timeout: 10_000 },
      )
      .toBe('sent');
    expect(await (await admin.request('/en/admin')).text()).not.toContain('have not gone out');
  });

  it('shows a background job failing on any instance, in both languages, until it works again', async () => {
    // The sweep's own lock and record, as an instance whose storage is unreachable leaves them.
    const sweep = (work: () => Promise<number>) => runPeriodicJob(db(), 'blog-image-sweep', 0, work);
    await expect(sweep(() => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.9:443')))).rejects.toThrow('ECONNREFUSED');
    const english = await (await admin.request('/en/admin')).text();
    expect(english).toMatch(
      /The background job “Sweeping unused blog images” has been failing since [^<]*: connect ECONNREFUSED 10\.0\.0\.9:443/,
    );
    expect(await (await admin.request('/tr/admin')).text()).toMatch(
      /“Kullanılmayan blog görsellerinin silinmesi” arka plan işi [^<]* tarihinden beri başarısız oluyor: connect ECONNREFUSED/,
    );
    await sweep(() => Promise.resolve(0));
    expect(await (await admin.request('/en/admin')).text()).not.toContain('has been failing');
  });
});

describe('client errors and logs', () => {
  const report = (browser: Browser, body: unknown, headers: Record<string, string> = {}) =>
    browser.postJson('/api/client-errors', body, headers);
  const valid = (message: string) => ({
    level: 'error',
    message,
    url: 'http://shop.example/en/courses',
    userAgent: 'Test/1.0',
    stack: 'Error: x\n    at y',
    data: { step: 2 },
    timestamp: new Date().toISOString(),
  });

  it('stores a valid report with the session user and the client address, never the user id the browser claims', async () => {
    const expired = await db()
      .insertInto('client_logs')
      .values({
        level: 'error',
        message: 'older than the retention',
        client_address: '192.0.2.2',
        created_at: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const anonymous = new Browser(server);
    expect((await report(anonymous, { ...valid('anonymous crash'), userId: randomUUID() })).status).toBe(204);
    expect((await report(buyer, valid('buyer crash'))).status).toBe(204);
    const rows = await db()
      .selectFrom('client_logs')
      .selectAll()
      .where('message', 'in', ['anonymous crash', 'buyer crash'])
      .orderBy('message')
      .execute();
    expect(rows.map((row) => [row.message, row.client_address, row.level, row.user_agent])).toEqual([
      ['anonymous crash', anonymous.address, 'error', 'Test/1.0'],
      ['buyer crash', buyer.address, 'error', 'Test/1.0'],
    ]);
    expect(rows[0]!.user_id).toBeNull();
    expect(rows[1]!.user_id).not.toBeNull();
    expect(rows[0]!.data).toEqual({ step: 2 });
    // Reports older than 30 days go as new ones arrive.
    expect(await db().selectFrom('client_logs').select('id').where('id', '=', expired.id).executeTakeFirst()).toBeUndefined();
  });

  it('refuses malformed reports with 4xx and field errors, never 500', async () => {
    const browser = new Browser(server);
    const cases: [unknown, number][] = [
      [{}, 400],
      [{ level: 'fatal', message: 'x' }, 400],
      [{ level: 'error', message: '' }, 400],
      [{ level: 'error', message: 'x'.repeat(2001) }, 400],
      [{ level: 'error', message: 'x', data: { blob: 'y'.repeat(9000) } }, 400],
      [{ level: 'error', message: 'x', timestamp: 'yesterday' }, 400],
      [[], 400],
      [null, 400],
    ];
    for (const [body, status] of cases)
      expect((await report(browser, body)).status, JSON.stringify(body).slice(0, 40)).toBe(status);
    const fields = await (await report(browser, { level: 'fatal', message: 'x'.repeat(2001) })).json();
    expect(Object.keys(fields.error.fields).sort()).toEqual(['level', 'message']);
    expect(
      (
        await browser.request('/api/client-errors', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{',
        })
      ).status,
    ).toBe(400);
    expect(
      (await browser.request('/api/client-errors', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'boom' }))
        .status,
    ).toBe(415);
    expect(
      (
        await browser.request('/api/client-errors', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ level: 'error', message: 'x'.repeat(30_000) }),
        })
      ).status,
    ).toBe(413);
    // NUL, which PostgreSQL refuses in text and jsonb, is refused at the boundary like everywhere else.
    expect((await report(browser, { level: 'warn', message: 'nul\u0000here', data: { 'k\u0000': 'v\u0000' } })).status).toBe(400);
    expect(await db().selectFrom('client_logs').select('id').where('message', 'like', 'nul%').execute()).toEqual([]);
  });

  it('limits reports to 10 a minute per client address with 429, other addresses unaffected', async () => {
    const address = `203.0.113.${Math.floor(Math.random() * 200) + 20}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++)
      statuses.push((await report(new Browser(server, address), valid(`flood ${attempt}`))).status);
    expect(statuses).toEqual([...Array(10).fill(204), 429, 429]);
    const limited = await report(new Browser(server, address), valid('flood again'));
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toMatchObject({ error: { message: 'errors.tooManyRequests' } });
    expect((await report(new Browser(server), valid('another address'))).status).toBe(204);
    // Concurrent floods cannot slip past the limit either.
    const burst = `203.0.113.${Math.floor(Math.random() * 10) + 5}`;
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, index) => report(new Browser(server, burst), valid(`burst ${index}`))),
    );
    expect(results.filter((response) => response.status === 204)).toHaveLength(10);
    expect(results.filter((response) => response.status === 429)).toHaveLength(15);
  });

  it('lists server logs newest first with level and text filters, and clears them on request', async () => {
    const browser = new Browser(server);
    await report(browser, { level: 'info', message: 'logs-list first info' });
    await report(browser, { level: 'error', message: 'logs-list second error', data: { needle: 'haystack-42' } });
    const list = async (query = '') =>
      (
        (await (await admin.request(`/api/admin/logs${query}`)).json()) as {
          logs: { message: string; level: string; data?: unknown }[];
        }
      ).logs;
    const all = await list();
    const mine = all.filter((entry) => entry.message.startsWith('logs-list'));
    expect(mine.map((entry) => entry.message)).toEqual(['logs-list second error', 'logs-list first info']);
    expect((await list('?level=info')).every((entry) => entry.level === 'info')).toBe(true);
    expect((await list('?q=haystack-42')).map((entry) => entry.message)).toEqual(['logs-list second error']);
    expect((await list('?level=bogus&q=%25')).length).toBeGreaterThanOrEqual(0);

    const cleared = await admin.request('/api/admin/logs', { method: 'DELETE' });
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as { deleted: number }).deleted).toBeGreaterThanOrEqual(2);
    expect(await list()).toEqual([]);
  });
});
