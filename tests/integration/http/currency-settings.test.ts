import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';

let server: TestServer;
let admin: Browser;
let buyer: Browser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInBrowser(server, { role: 'admin' });
  buyer = await signedInBrowser(server, { role: 'user' });
});
afterAll(() => server.stop());

const send = (browser: Browser, method: string, path: string, body?: unknown) => browser.json(method, path, body);
const page = async (path: string) => (await server.fetch(path)).text();
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
const catalogue = async (query: string) =>
  ((await (await server.fetch(`/api/courses?${query}`)).json()) as { courses: { title: string }[] }).courses.map(
    (course) => course.title,
  );

/** As the admin form sends it: text from the inputs. */
const VALID = {
  baseCurrency: 'USD',
  rateUSD: '1',
  rateEUR: '0,87',
  rateTRY: '50',
  ratesDate: daysAgo(40),
  defaultCurrencyEn: 'EUR',
  defaultCurrencyTr: 'TRY',
  homeMaxUSD: '10',
  homeMaxEUR: '10',
  homeMaxTRY: '150',
};

describe('currency settings', () => {
  it('are the admin’s only', async () => {
    expect((await server.fetch('/api/admin/currency-settings')).status).toBe(401);
    expect((await send(buyer, 'GET', '/api/admin/currency-settings')).status).toBe(403);
    expect((await send(buyer, 'PUT', '/api/admin/currency-settings', VALID)).status).toBe(403);
    const response = await send(admin, 'GET', '/api/admin/currency-settings');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ saved: false, settings: { rateTRY: 42.4, defaultCurrencyTr: 'TRY' } });
  });

  it('start from the built-in rates, which the admin overview asks to replace', async () => {
    expect(text(await page('/tr/'))).toContain("Ücretsiz ya da ₺400'e kadar; her biri tek oturuşta biter.");
    expect(text(await page('/en/'))).toContain('Free or up to $10, each one finished in a single sitting.');
    const overview = text(await (await admin.request('/en/admin')).text());
    expect(overview).toContain('The shop still uses the built-in reference exchange rates of November 24, 2025: set your own.');
  });

  it('refuse bad input field by field and store nothing', async () => {
    const response = await send(admin, 'PUT', '/api/admin/currency-settings', {
      ...VALID,
      rateEUR: '0.1234567',
      rateTRY: '-1',
      ratesDate: daysAgo(-3),
      defaultCurrencyTr: 'GBP',
      homeMaxUSD: '2.5',
      homeMaxTRY: '20001',
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { fields: Record<string, string> } };
    expect(error.fields).toEqual({
      rateEUR: 'admin.currencies.rateInvalid',
      rateTRY: 'admin.currencies.rateInvalid',
      ratesDate: 'admin.currencies.ratesDateInvalid',
      defaultCurrencyTr: 'admin.currencies.currencyInvalid',
      homeMaxUSD: 'admin.currencies.homeMaxInvalid',
      homeMaxTRY: 'admin.currencies.homeMaxInvalid',
    });
    // The base is what the rates count in: one of it is 1.
    const base = await send(admin, 'PUT', '/api/admin/currency-settings', { ...VALID, rateUSD: '2' });
    expect(((await base.json()) as { error: { fields: unknown } }).error.fields).toEqual({
      rateUSD: 'admin.currencies.baseRateOne',
    });
    for (const ratesDate of ['2026-02-30', '1999-12-31', 'yesterday', '']) {
      const refused = await send(admin, 'PUT', '/api/admin/currency-settings', { ...VALID, ratesDate });
      expect(refused.status, ratesDate).toBe(400);
    }
    expect(await db().selectFrom('currency_settings').selectAll().execute()).toEqual([]);
  });

  it('once saved, reach every page and catalogue answer at once, and old rates are flagged', async () => {
    await catalogue('lang=tr&maxPrice=150&currency=TRY'); // cached before the change
    const response = await send(admin, 'PUT', '/api/admin/currency-settings', VALID);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ settings: { rateEUR: 0.87, homeMaxTRY: 150 } });

    // The purge reaches the page cache through PostgreSQL's NOTIFY, a moment after the answer.
    await expect.poll(async () => text(await page('/tr/')), { timeout: 2000 }).toContain("Ücretsiz ya da ₺150'ye kadar");
    expect(text(await page('/en/'))).toContain('Free or up to €10');
    // At 50 lira to the dollar, $2.99 is ₺149.50 and ₺149 stays ₺149; $3.99 (₺199.50) is out.
    await expect.poll(() => catalogue('lang=tr&maxPrice=150&currency=TRY'), { timeout: 2000 }).toHaveLength(4);
    const turkish = await catalogue('lang=tr&maxPrice=150&currency=TRY');
    expect(turkish.some((title) => title.startsWith('Telefonla Ürün Fotoğrafı'))).toBe(true);
    expect(turkish.some((title) => title.startsWith('Dağınıklığa Son'))).toBe(true);
    expect(turkish.some((title) => title.startsWith('Kavgasız Ekran Süresi'))).toBe(false);
    // English pages now default to euros: an old link's limit is read in euros (€4.50 is in, $9 ≈ €7.83 is out).
    const english = await catalogue('lang=en&maxPrice=5');
    expect(english).toContain('The 30-Minute Weekly Review');
    expect(english).not.toContain('Value-Based Pricing for Freelancers');
    expect(text(await page('/en/courses'))).toContain('Maximum price (€)');

    const overview = text(await (await admin.request('/en/admin')).text());
    expect(overview).toMatch(/The reference exchange rates are from \w+ \d+, \d{4}, 40 days ago/);
    const turkishOverview = text(await (await admin.request('/tr/admin')).text());
    expect(turkishOverview).toContain('yani 40 gün önceye ait');
  });

  it('dated today, are no longer flagged', async () => {
    const response = await send(admin, 'PUT', '/api/admin/currency-settings', { ...VALID, ratesDate: daysAgo(0) });
    expect(response.status).toBe(200);
    const overview = text(await (await admin.request('/en/admin')).text());
    expect(overview).not.toContain('reference exchange rates');
    expect(text(await (await admin.request('/en/admin/settings')).text())).toContain('Reference exchange rates');
  });
});
