import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { deliverPaid, startFakeStripe } from '../../support/fake-stripe.ts';
import { revokePurchase } from '../../../functions/orders/fulfilment.ts';
import { sql } from 'kysely';
import { currentQuarter, quarterLastDay, QuarterSchema } from '../../../src/lib/admin/tax-report.schema.ts';
import { taxTableStatus } from '../../../functions/taxes/rate-table.ts';
import { startFakeVies, type FakeVies } from '../../support/fake-vies.ts';
import { makePurchase, uniqueEmail } from '../../support/factories.ts';
import { readPdf } from '../../support/pdf-reader.ts';

let server: TestServer;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let vies: FakeVies;
let admin: Browser;
let course: { id: string; price_minor: number };

/** A German IP address (GeoLite2 data in geoip-country), sent through the trusted proxy header. */
const GERMAN_IP = '85.214.132.117';
const FRENCH_BUSINESS = 'FR40303265045';

/** A Turkish seller registered for non-Union OSS, prices plus tax, as Admin → Settings → Taxes sends it. */
const SETTINGS = {
  sellerCountry: 'TR',
  vatNumber: '',
  taxOffice: 'Kadıköy',
  oss: 'non_union',
  underEuThreshold: false,
  registrations: 'GB',
  displayMode: 'exclusive',
  rateOverrides: '',
  ebookCourses: [],
};

beforeAll(async () => {
  stripe = await startFakeStripe();
  vies = await startFakeVies();
  vies.registered.add(FRENCH_BUSINESS);
  server = await startTestServer({ ...stripe.settings, VIES_URL: vies.url });
  admin = await signedInBrowser(server, { role: 'admin' });
  course = await db()
    .selectFrom('courses')
    .select(['id', 'price_minor'])
    .where('currency', '=', 'EUR')
    .where('price_minor', '>', 0)
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await server.stop();
  await stripe.stop();
  await vies.stop();
});

const buyer = (ip = '127.0.0.1') => ({ headers: { 'x-forwarded-for': ip } });
const quote = (fields: Record<string, unknown>, ip?: string) =>
  new Browser(server).postJson('/api/checkout/tax', { courseId: course.id, language: 'en', ...fields }, buyer(ip).headers);
const checkout = (fields: Record<string, unknown>, ip?: string) =>
  new Browser(server).postJson(
    '/api/checkout',
    {
      courseId: course.id,
      language: 'en',
      email: uniqueEmail('tax'),
      fullName: 'Lena Vogel',
      acceptTerms: true,
      waiveWithdrawal: true,
      ...fields,
    },
    buyer(ip).headers,
  );
const orderOf = async (response: Response) => {
  const { redirectUrl } = (await response.json()) as { redirectUrl: string };
  const sessionId = redirectUrl.split('/').pop()!;
  return db().selectFrom('purchases').selectAll().where('payment_id', '=', sessionId).executeTakeFirstOrThrow();
};
const fieldsOf = async (response: Response) =>
  ((await response.json()) as { error?: { fields?: Record<string, string> } }).error?.fields;

describe('tax settings', () => {
  it('refuse a wrong VAT number at its field, and are saved for the checkout to use', async () => {
    const wrong = await admin.json('PUT', '/api/admin/tax-settings', { ...SETTINGS, vatNumber: 'DE136695977' });
    expect(wrong.status).toBe(400);
    expect(await fieldsOf(wrong)).toEqual({ vatNumber: 'admin.taxes.vatNumberInvalid' });
    expect((await admin.json('PUT', '/api/admin/tax-settings', SETTINGS)).status).toBe(200);
    const saved = await (await admin.json('GET', '/api/admin/tax-settings')).json();
    expect(saved).toMatchObject({
      saved: true,
      settings: { sellerCountry: 'TR', registrations: ['GB'], displayMode: 'exclusive' },
    });
    // The overview warns about a rate table older than six months, once the shop taxes by country.
    const overview = await (await admin.request('/en/admin')).text();
    expect(overview.includes('The tax rate table is from')).toBe(taxTableStatus().stale);
  });
});

describe('checkout with taxes', () => {
  const vat19 = () => Math.round(course.price_minor * 0.19);

  it('adds 19 % on top for a German consumer: the quote, the order and the provider’s amount agree', async () => {
    const quoted = await quote({ country: 'DE' });
    expect(quoted.status).toBe(200);
    const { quote: line } = (await quoted.json()) as { quote: { grossMinor: number; taxMinor: number } };
    expect(line).toMatchObject({ scheme: 'eu_b2c', taxCountry: 'DE', ratePercent: 19, taxMinor: vat19(), inclusive: false });
    // Not the total the buyer saw: nothing is charged.
    const unseen = await checkout({ country: 'DE', expectedTotalMinor: course.price_minor });
    expect(unseen.status).toBe(400);
    expect(await fieldsOf(unseen)).toEqual({ country: 'checkout.tax.totalChanged' });
    const paid = await checkout({ country: 'DE', expectedTotalMinor: line.grossMinor });
    expect(paid.status).toBe(200);
    const order = await orderOf(paid);
    expect(order).toMatchObject({
      amount_minor: course.price_minor + vat19(),
      net_minor: course.price_minor,
      tax_minor: vat19(),
      tax_scheme: 'eu_b2c',
      tax_country: 'DE',
      tax_rate_hundredths: 1900,
    });
    expect(order.tax_evidence).toMatchObject({ billingCountry: 'DE', ipCountry: null, category: 'standard' });
    expect([...stripe.sessions.values()].at(-1)).toMatchObject({ amount_total: course.price_minor + vat19() });
  });

  it('reverse-charges a French business whose VAT number the VIES fake knows, and records VIES’s answer', async () => {
    const quoted = await quote({ country: 'FR', vatNumber: 'fr 40 303 265 045', businessName: 'Atelier SAS' });
    expect(await quoted.json()).toMatchObject({
      quote: { scheme: 'reverse_charge', taxMinor: 0, grossMinor: course.price_minor },
    });
    const order = await orderOf(
      await checkout({
        country: 'FR',
        vatNumber: FRENCH_BUSINESS,
        businessName: 'Atelier SAS',
        expectedTotalMinor: course.price_minor,
      }),
    );
    expect(order).toMatchObject({
      amount_minor: course.price_minor,
      tax_scheme: 'reverse_charge',
      tax_minor: 0,
      tax_country: 'FR',
    });
    expect(order.tax_evidence).toMatchObject({
      vatNumber: FRENCH_BUSINESS,
      businessName: 'Atelier SAS',
      vies: { check: 'valid' },
    });
    expect(vies.requests.at(-1)).toEqual({ countryCode: 'FR', vatNumber: '40303265045' });
  });

  it('says what is wrong with a VAT number at its field, never a 500', async () => {
    for (const [vatNumber, message] of [
      ['FR123', 'checkout.tax.vatNumberInvalid'],
      ['DE136695976', 'checkout.tax.vatNumberCountry'],
      ['FR83404833048', 'checkout.tax.vatNumberNotRegistered'],
    ]) {
      const refused = await checkout({ country: 'FR', vatNumber, expectedTotalMinor: course.price_minor });
      expect(refused.status, vatNumber).toBe(400);
      expect(await fieldsOf(refused), vatNumber).toEqual({ vatNumber: message });
    }
  });

  it('charges VAT when VIES does not answer, and records that', async () => {
    vies.down = true;
    try {
      const gross = course.price_minor + Math.round(course.price_minor * 0.21);
      const order = await orderOf(await checkout({ country: 'BE', vatNumber: 'BE0417497106', expectedTotalMinor: gross }));
      expect(order).toMatchObject({ tax_scheme: 'eu_b2c', tax_country: 'BE', amount_minor: gross });
      expect(order.tax_evidence).toMatchObject({ vatNumber: 'BE0417497106', vies: { check: 'unavailable' } });
    } finally {
      vies.down = false;
    }
  });

  it('asks the buyer to confirm a country their address contradicts, and records the confirmation', async () => {
    const gross = course.price_minor + Math.round(course.price_minor * 0.2);
    expect(await (await quote({ country: 'FR' }, GERMAN_IP)).json()).toMatchObject({ confirmAgainst: 'DE' });
    const unconfirmed = await checkout({ country: 'FR', expectedTotalMinor: gross }, GERMAN_IP);
    expect(unconfirmed.status).toBe(400);
    expect(await fieldsOf(unconfirmed)).toEqual({ confirmCountry: 'checkout.tax.confirmCountryRequired' });
    const order = await orderOf(await checkout({ country: 'FR', confirmCountry: true, expectedTotalMinor: gross }, GERMAN_IP));
    expect(order.tax_evidence).toMatchObject({ billingCountry: 'FR', ipCountry: 'DE', countryConfirmedAt: expect.any(String) });
  });

  it('charges nothing outside the places the seller owes tax, and a registered country its rate', async () => {
    expect(await (await quote({ country: 'US' })).json()).toMatchObject({ quote: { scheme: 'none', taxMinor: 0 } });
    expect(await (await quote({ country: 'GB' })).json()).toMatchObject({ quote: { scheme: 'registered', ratePercent: 20 } });
    expect(await fieldsOf(await quote({ country: '' }))).toEqual({ country: 'checkout.tax.countryRequired' });
  });
});

describe('checkout with taxes, before and without JavaScript', () => {
  // By default from an address with no country (loopback), so that only the total is in question.
  const post = (form: Record<string, string>, ip = '127.0.0.1') =>
    new Browser(server, ip).request(`/en/checkout/${course.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: uniqueEmail('form'),
        fullName: 'Lena Vogel',
        acceptTerms: 'on',
        waiveWithdrawal: 'on',
        ...form,
      }).toString(),
    });

  it('renders the country and the total in the page, and takes the browser’s post only with the total it showed', async () => {
    const html = await (await new Browser(server).request(`/en/checkout/${course.id}`)).text();
    expect(html).toContain('Country where you live');
    expect(html).toMatch(/name="expectedTotalMinor" value="\d+"/);
    const gross = course.price_minor + Math.round(course.price_minor * 0.19);
    // The buyer changed the country without the script: the page shows the new total instead of charging it.
    const changed = await post({ country: 'DE', expectedTotalMinor: String(course.price_minor) });
    expect(changed.status).toBe(400);
    const page = await changed.text();
    expect(page).toContain('The total changed with the country or VAT number you gave: check it and pay again.');
    expect(page).toContain(`name="expectedTotalMinor" value="${gross}"`);
    const paid = await post({ country: 'DE', expectedTotalMinor: String(gross) });
    expect(paid.status).toBe(200);
    const order = await db()
      .selectFrom('purchases')
      .select(['amount_minor', 'tax_scheme'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ amount_minor: gross, tax_scheme: 'eu_b2c' });
  });

  it('asks a buyer whose address says Germany to confirm France in the page itself, and records the confirmed post', async () => {
    const gross = course.price_minor + Math.round(course.price_minor * 0.2);
    const unconfirmed = await post({ country: 'FR', expectedTotalMinor: String(gross) }, GERMAN_IP);
    expect(unconfirmed.status).toBe(400);
    const page = await unconfirmed.text();
    expect(page).toMatch(/<input[^>]*type="checkbox"[^>]*name="confirmCountry"/);
    expect(page).toContain('I confirm that I live in France');
    expect(page).toContain('Your connection seems to come from Germany.');
    const confirmed = await post({ country: 'FR', expectedTotalMinor: String(gross), confirmCountry: 'on' }, GERMAN_IP);
    expect(confirmed.status).toBe(200);
    const order = await db()
      .selectFrom('purchases')
      .select('tax_evidence')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(order.tax_evidence).toMatchObject({ billingCountry: 'FR', ipCountry: 'DE', countryConfirmedAt: expect.any(String) });
  });
});

const csvRows = async (path: string) => {
  const response = await admin.request(path);
  expect(response.status).toBe(200);
  return (await response.text())
    .replace('\uFEFF', '')
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
};

describe('the tax report', () => {
  it('adds up to the paid orders by country and rate, with a refund netted, on the page and in the CSV', async () => {
    // Every paid order of this file so far, plus a Turkish buyer's (KDV included) refunded afterwards.
    const pending = await db()
      .selectFrom('purchases')
      .selectAll()
      .where('status', '=', 'pending')
      .where('tax_scheme', 'is not', null)
      .execute();
    const turkish = await orderOf(await checkout({ country: 'TR', expectedTotalMinor: course.price_minor }));
    // Paid with cards of the taxed country (the fake Stripe reports it on the charge, as Stripe does).
    for (const order of [...pending, turkish]) {
      const intent = stripe.pay(order.payment_id!, order.id, order.tax_country || 'US');
      expect((await deliverPaid(server, order, intent)).status).toBe(200);
    }
    expect(await revokePurchase({ orderId: turkish.id }, 'refunded')).toBe('revoked');
    const paid = await db()
      .selectFrom('purchases')
      .selectAll()
      .where('status', '=', 'completed')
      .where('tax_scheme', 'is not', null)
      .execute();
    const german = paid.find((order) => order.tax_country === 'DE' && order.tax_scheme === 'eu_b2c');
    expect(german?.tax_evidence).toMatchObject({ billingCountry: 'DE', cardCountry: 'DE' });

    const csv = await admin.request(`/api/admin/taxes/export?quarter=${currentQuarter()}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...lines] = (await csv.text()).replace('\uFEFF', '').trim().split('\r\n');
    expect(header).toBe(
      'quarter,scheme,country,rate_percent,currency,orders,net,tax,gross,reporting_currency,net_reporting,tax_reporting,conversion',
    );
    const rows = lines.map((line) => line.split(','));
    const total = (column: number) => rows.reduce((sum, row) => sum + Number(row[column]), 0);
    const cents = (column: number) => Math.round(total(column) * 100);
    expect(cents(6)).toBe(paid.reduce((sum, order) => sum + order.net_minor!, 0));
    expect(cents(7)).toBe(paid.reduce((sum, order) => sum + order.tax_minor!, 0));
    expect(total(5)).toBe(paid.length);
    expect(rows).toContainEqual([
      currentQuarter(),
      'eu_b2c',
      'DE',
      '19',
      'EUR',
      '2',
      String((2 * course.price_minor) / 100),
      String((2 * Math.round(course.price_minor * 0.19)) / 100),
      expect.any(String),
      'EUR',
      String((2 * course.price_minor) / 100),
      String((2 * Math.round(course.price_minor * 0.19)) / 100),
      'same currency',
    ]);
    // The Turkish sale and its refund cancel out in the same quarter, here and in the domestic months' CSV.
    expect(rows).toContainEqual([
      currentQuarter(),
      'domestic',
      'TR',
      '20',
      'EUR',
      '0',
      '0',
      '0',
      '0',
      'EUR',
      '0',
      '0',
      'same currency',
    ]);
    const months = await csvRows(`/api/admin/taxes/export?quarter=${currentQuarter()}&report=domestic`);
    expect(months).toEqual([
      ['month', 'currency', 'orders', 'net', 'tax', 'gross'],
      [new Date().toISOString().slice(0, 7), 'EUR', '0', '0', '0', '0'],
    ]);

    const page = await (await admin.request(`/tr/admin/taxes?quarter=${currentQuarter()}`)).text();
    expect(page).toContain('Ülkeye ve orana göre vergi');
    expect(page).toContain('AB işletmesi, sorumlu sıfatıyla beyan');
    expect(page).toContain('Almanya');
  });

  it('lists the sales still needing an e-Arşiv invoice and records a number typed in a plain form', async () => {
    const sale = await db()
      .selectFrom('purchases')
      .select(['id', 'receipt_number'])
      .where('status', '=', 'completed')
      .where('receipt_number', 'is not', null)
      .orderBy('receipt_number')
      .executeTakeFirstOrThrow();
    const receipt = `R-${String(sale.receipt_number).padStart(6, '0')}`;
    const listed = await (await admin.request('/en/admin/taxes')).text();
    expect(listed).toContain('e-Arşiv invoices to issue');
    expect(listed).toContain(`e-Arşiv invoice number for ${receipt}`);
    const record = (number: string) =>
      admin.request('/en/admin/taxes', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ orderId: sale.id, number }).toString(),
      });
    const wrong = await record('ABC123');
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('An e-Arşiv invoice number has 16 characters');
    const recorded = await record('abc2026000000001');
    expect(recorded.status).toBe(303);
    const row = await db().selectFrom('purchases').select('e_arsiv_number').where('id', '=', sale.id).executeTakeFirstOrThrow();
    expect(row.e_arsiv_number).toBe('ABC2026000000001');
    expect(await (await admin.request('/en/admin/taxes')).text()).not.toContain(`e-Arşiv invoice number for ${receipt}`);

    // The buyer sees the number on their orders, and the Turkish seller's PDF is now an invoice carrying it.
    const email = uniqueEmail('alici');
    const buyerBrowser = await signedInBrowser(server, { role: 'user', email });
    const account = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db().updateTable('purchases').set({ user_id: account.id, guest: false }).where('id', '=', sale.id).execute();
    const orders = await (await buyerBrowser.request('/en/dashboard/courses')).text();
    expect(orders).toMatch(/e-Arşiv invoice number: <span[^>]*>ABC2026000000001</);
    const pdf = await buyerBrowser.request(`/api/account/purchases/${sale.id}/receipt`);
    const text = (await readPdf(new Uint8Array(await pdf.arrayBuffer()))).pages[0]!.text;
    expect(text).toMatch(/^Invoice/);
    expect(text).toMatch(/e-Arşiv invoice number:\s*ABC2026000000001/);
  });

  it('converts the quarter to the reporting currency at the ECB rate of its last day, and says so when it is missing', async () => {
    expect((await admin.json('PUT', '/api/admin/tax-settings', { ...SETTINGS, reportingCurrency: 'TRY' })).status).toBe(200);
    const lastDay = quarterLastDay(QuarterSchema.parse(currentQuarter()));
    const report = `/api/admin/taxes/export?quarter=${currentQuarter()}`;
    const missing = await csvRows(report);
    expect(missing.slice(1).every((row) => row[10] === '' && row[12] === `ECB rate missing for TRY on ${lastDay}`)).toBe(true);
    expect(await (await admin.request('/en/admin/taxes')).text()).toContain(`No ECB rate recorded for TRY on ${lastDay}`);

    // A typed rate that is not a number is refused at its form; the ECB's CSV (the day before is not used) is imported.
    const post = (body: FormData | URLSearchParams) => admin.request('/en/admin/taxes', { method: 'POST', body });
    const typo = await post(new URLSearchParams({ form: 'rate', currency: 'TRY', day: lastDay, perEuro: 'abc' }));
    expect(typo.status).toBe(400);
    expect(await typo.text()).toContain('Give the rate as a positive number');
    const before = new Date(Date.parse(lastDay) - 86_400_000).toISOString().slice(0, 10);
    const ecb = new FormData();
    ecb.set('form', 'ecb-csv');
    ecb.set(
      'ecbCsv',
      new Blob([`Date,USD,JPY,TRY,\n${lastDay},1.0500,160.00,36.5000,\n${before},1.0400,159.00,99.0000,\n`]),
      'eurofxref-hist.csv',
    );
    const imported = await post(ecb);
    expect(imported.status).toBe(303);
    expect(imported.headers.get('location')).toContain('done=imported&count=4');
    const converted = (await csvRows(report)).slice(1);
    for (const row of converted) {
      expect(row[12]).toBe(`ECB ${lastDay}: 1 EUR = 36.5 TRY`);
      expect(Number(row[10])).toBeCloseTo(Number(row[6]) * 36.5, 2);
    }
    expect((await admin.json('PUT', '/api/admin/tax-settings', SETTINGS)).status).toBe(200);
  });

  it('lets the admin check again a VAT number VIES did not answer for, then refund exactly its VAT once, in plain forms (fake VIES, fake Stripe)', async () => {
    const page = await (await admin.request('/en/admin/taxes')).text();
    expect(page).toContain('VAT numbers VIES did not check');
    expect(page).toContain('BE0417497106');
    const order = await db()
      .selectFrom('purchases')
      .selectAll()
      .where(sql<boolean>`tax_evidence->>'vatNumber' = 'BE0417497106'`)
      .executeTakeFirstOrThrow();
    const post = (form: string) =>
      admin.request('/en/admin/taxes', { method: 'POST', body: new URLSearchParams({ form, orderId: order.id }) });
    // Not owed before VIES confirms the number.
    const early = await post('vat-refund');
    expect(early.status).toBe(400);
    expect(await early.text()).toContain('This order is not owed its VAT back');
    vies.registered.add('BE0417497106');
    const checked = await post('vies');
    expect(checked.status).toBe(303);
    const after = await db().selectFrom('purchases').select('tax_evidence').where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(after.tax_evidence).toMatchObject({ vies: { check: 'unavailable' }, viesRecheck: { check: 'valid' } });
    const vat = `€${(order.tax_minor! / 100).toFixed(2)}`;
    const shown = await (await admin.request(checked.headers.get('location')!)).text();
    expect(shown).toContain('VIES says the number is valid');
    expect(shown).toContain(`refund ${vat} of VAT`);
    expect(shown).toContain(`aria-label="Refund the VAT of R-${String(order.receipt_number).padStart(6, '0')}: ${vat}"`);

    // Stripe refuses: the error at the form, and nothing written (no refund, no credit note number taken).
    const counter = () =>
      db().selectFrom('document_counters').select('last_number').where('kind', '=', 'credit_note').executeTakeFirst();
    const before = await counter();
    stripe.knobs.refundsDeclined = true;
    try {
      const refused = await post('vat-refund');
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('role="alert"');
    } finally {
      stripe.knobs.refundsDeclined = false;
    }
    expect(await db().selectFrom('vat_refunds').selectAll().where('purchase_id', '=', order.id).execute()).toEqual([]);
    expect(await counter()).toEqual(before);
    expect(stripe.refundedOf(order.payment_reference!)).toBe(0);

    // Submitted twice at once: one refund of exactly the VAT, one credit note; the order keeps its access.
    const twice = await Promise.all([post('vat-refund'), post('vat-refund')]);
    expect(twice.map((response) => response.status)).toEqual([303, 303]);
    expect(stripe.refundedOf(order.payment_reference!)).toBe(order.tax_minor);
    const asked = stripe.requests.filter(
      (request) => request.path === '/v1/refunds' && request.body.get('payment_intent') === order.payment_reference,
    );
    expect(asked.at(-1)!.body.get('amount')).toBe(String(order.tax_minor));
    expect(asked.at(-1)!.headers['idempotency-key']).toBe(`refund-part-${order.id}`);
    const refunds = await db().selectFrom('vat_refunds').selectAll().where('purchase_id', '=', order.id).execute();
    expect(refunds).toMatchObject([{ amount_minor: order.tax_minor, country: 'BE', currency: 'EUR' }]);
    expect(
      await db().selectFrom('purchases').select(['status', 'refund_requested_at']).where('id', '=', order.id).executeTakeFirst(),
    ).toEqual({
      status: 'completed',
      refund_requested_at: null,
    });
    const creditNote = `CN-${String(refunds[0]!.credit_note_number).padStart(6, '0')}`;
    expect(await (await admin.request(twice[0].headers.get('location')!)).text()).toContain(`(credit note ${creditNote})`);

    // The report moves the sale from the Belgian consumers' line to the reverse charge's; the receipt shows the credit.
    const rows = await csvRows(`/api/admin/taxes/export?quarter=${currentQuarter()}`);
    const net = String(order.net_minor! / 100);
    expect(rows).toContainEqual([
      currentQuarter(),
      'eu_b2c',
      'BE',
      '21',
      'EUR',
      '0',
      '0',
      '0',
      '0',
      'EUR',
      '0',
      '0',
      'same currency',
    ]);
    expect(rows).toContainEqual([
      currentQuarter(),
      'reverse_charge',
      'BE',
      '0',
      'EUR',
      '1',
      net,
      '0',
      net,
      'EUR',
      net,
      '0',
      'same currency',
    ]);
    const pdf = await admin.request(`/api/admin/purchases/${order.id}/receipt`);
    const text = (await readPdf(new Uint8Array(await pdf.arrayBuffer()))).pages[0]!.text;
    expect(text).toMatch(new RegExp(`\\(credit note ${creditNote}\\)\\s*-${vat.replace('.', '\\.')}`));
    expect(text).toContain('Reverse charge: VAT to be accounted for by the recipient');
  });

  it('warns an EU seller under the €10,000 threshold as cross-border sales to consumers near it and pass it', async () => {
    const german = { ...SETTINGS, sellerCountry: 'DE', taxOffice: '', oss: 'none', underEuThreshold: true, registrations: '' };
    expect((await admin.json('PUT', '/api/admin/tax-settings', german)).status).toBe(200);
    // The consumers' sales so far: the one whose VAT was refunded was a business's.
    const sold = await db()
      .selectFrom('purchases')
      .leftJoin('vat_refunds', 'vat_refunds.purchase_id', 'purchases.id')
      .select(sql<string>`coalesce(sum(net_minor), 0)`.as('net'))
      .where('status', '=', 'completed')
      .where('tax_scheme', 'in', ['eu_b2c', 'eu_home'])
      .where('vat_refunds.purchase_id', 'is', null)
      .executeTakeFirstOrThrow();
    // A large sale to an Austrian consumer at the home rate brings the year to €8,500.
    const sale = async (netMinor: number, receiptNumber: number) =>
      makePurchase(course.id, {
        provider: 'stripe',
        currency: 'EUR',
        amount_minor: netMinor + Math.round(netMinor * 0.19),
        net_minor: netMinor,
        tax_minor: Math.round(netMinor * 0.19),
        tax_scheme: 'eu_home',
        tax_country: 'DE',
        tax_rate_hundredths: 1900,
        receipt_number: receiptNumber,
      });
    await sale(850_000 - Number(sold.net), 990_001);
    const near = await (await admin.request('/en/admin/taxes')).text();
    expect(near).toContain(`reached €8,500.00 before tax, 85 % of the €10,000 threshold`);
    await sale(200_000, 990_002);
    expect(await (await admin.request('/en/admin/taxes')).text()).toContain(
      'reached €10,500.00 before tax, past the €10,000 threshold',
    );
  });
});
