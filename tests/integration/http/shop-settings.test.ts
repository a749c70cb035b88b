import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { db } from '../../../functions/db/database.ts';
import { makeCourse } from '../../support/factories.ts';
import { renderMail } from '../../../functions/mail/template.ts';
import { courseMaterials } from '../../../functions/mail/templates/course-materials.ts';
import { runDoctor } from '../../../functions/ops/doctor.ts';
import { audienceSettings, defaultTexts } from '../../../functions/audience/settings.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { forgetSettings } from '../../../functions/shop/settings-cache.ts';

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

const ACME = {
  shopName: 'Acme Courses',
  legalName: 'Acme Eğitim Ltd. Şti.',
  address: 'İstiklal Cad. 10\n34433 Beyoğlu/İstanbul',
  supportEmail: 'help@acme.example',
  phone: '+90 212 123 45 67',
  taxNumber: '1234567890',
  taxRatePercent: '20',
  socialLinks: 'https://www.instagram.com/acme\nhttps://www.linkedin.com/company/acme',
};

const page = async (path: string) => (await server.fetch(path)).text();
/** A page once the purge its change announced has reached the server (milliseconds after the commit). */
async function pageShowing(path: string, expected: string): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        html = await page(path);
        return html;
      },
      { timeout: 5000 },
    )
    .toContain(expected);
  return html;
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('shop settings', () => {
  it('are the admin’s only: signed-out visitors and buyers are refused', async () => {
    expect((await server.fetch('/api/admin/settings')).status).toBe(401);
    expect((await send(buyer, 'GET', '/api/admin/settings')).status).toBe(403);
    expect((await send(buyer, 'PUT', '/api/admin/settings', ACME)).status).toBe(403);
    expect((await send(buyer, 'PUT', '/api/admin/legal-texts/en/terms', { body: 'Mine' })).status).toBe(403);
    const response = await send(admin, 'GET', '/api/admin/settings');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { settings: { legalName: string } }).settings.legalName).toMatch(/demo|example/i);
  });

  it('refuse bad input field by field and keep what was stored', async () => {
    const before = await db().selectFrom('shop_settings').select('settings').executeTakeFirstOrThrow();
    const response = await send(admin, 'PUT', '/api/admin/settings', {
      ...ACME,
      shopName: ' ',
      supportEmail: 'not-an-address',
      phone: 'call me',
      taxRatePercent: '60',
      socialLinks: 'javascript:alert(1)',
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { fields: Record<string, string> } };
    expect(error.fields).toEqual({
      shopName: 'admin.settings.shopNameRequired',
      supportEmail: 'validation.emailInvalid',
      phone: 'admin.settings.phoneInvalid',
      taxRatePercent: 'admin.settings.taxRateInvalid',
      socialLinks: 'admin.settings.socialLinkInvalid',
    });
    const after = await db().selectFrom('shop_settings').select('settings').executeTakeFirstOrThrow();
    expect(after.settings).toEqual(before.settings);
  });

  it('once saved, name the shop on every page, with this year’s ©, in both languages', async () => {
    await page('/en/about'); // cached before the change
    const response = await send(admin, 'PUT', '/api/admin/settings', ACME);
    expect(response.status).toBe(200);
    const year = new Date().getFullYear();
    for (const path of ['/en/about', '/tr/about', '/en/courses', '/tr/blog', '/en/login']) {
      const html = await pageShowing(path, `© ${year} Acme Eğitim Ltd. Şti.`);
      expect(html, path).toContain('<title>');
      expect(html, path).toMatch(/\| Acme Courses<\/title>|>Acme Courses</);
      expect(html, path).toContain('href="https://www.linkedin.com/company/acme"');
    }
    const contact = text(await page('/tr/contact'));
    expect(contact).toContain('help@acme.example');
    expect(contact).toContain('+90 212 123 45 67');
    expect(contact).toContain('İstiklal Cad. 10 34433 Beyoğlu/İstanbul');
    expect(contact).not.toContain('microcourses.example');
  });

  it('fill the legal texts, and a seller’s own wording replaces the shipped one until restored', async () => {
    const terms = text(await page('/en/terms'));
    expect(terms).toContain('run by Acme Eğitim Ltd. Şti.');
    expect(terms).toContain('Tax number: 1234567890');
    expect(terms).not.toMatch(/\{\{|microcourses\.example/);

    const own = '## Kurallar\n\n{{legalName}} satıcıdır. <script>alert(1)</script><img src=x onerror=alert(1)>';
    const saved = await send(admin, 'PUT', '/api/admin/legal-texts/tr/terms', { body: own });
    expect(saved.status).toBe(200);
    const html = await pageShowing('/tr/terms', 'Acme Eğitim Ltd. Şti. satıcıdır.');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('onerror');
    expect(text(await page('/en/terms'))).toContain('run by Acme'); // the other language is untouched

    expect((await send(admin, 'PUT', '/api/admin/legal-texts/tr/terms', { body: '   ' })).status).toBe(400);
    expect((await send(admin, 'PUT', '/api/admin/legal-texts/en/distance-contract', { body: 'x' })).status).toBe(404);
    expect((await send(admin, 'PUT', '/api/admin/legal-texts/de/terms', { body: 'x' })).status).toBe(404);

    expect((await send(admin, 'DELETE', '/api/admin/legal-texts/tr/terms')).status).toBe(200);
    // The cached page goes when the purge announced with the change reaches the server (milliseconds).
    await expect
      .poll(async () => text(await page('/tr/terms')), { timeout: 5000 })
      .toContain('Acme Eğitim Ltd. Şti. tarafından işletilir');
  });

  it('promise a money-back guarantee only when the seller gives one, and never on a free course', async () => {
    const paid = await makeCourse({ title: `Paid ${randomUUID().slice(0, 6)}`, price_minor: 900 });
    const free = await makeCourse({ title: `Free ${randomUUID().slice(0, 6)}`, price_minor: 0 });
    // Saved before the setting existed (ACME has none): the 30 days the shipped legal texts promised.
    expect(text(await page(`/en/course/${paid.id}`))).toContain('30-day money-back guarantee');
    expect(text(await page(`/en/course/${free.id}`))).not.toContain('money-back');
    expect(text(await page('/en/terms'))).toContain('within 30 days of the purchase date');

    expect((await send(admin, 'PUT', '/api/admin/settings', { ...ACME, moneyBackDays: '400' })).status).toBe(400);
    expect((await send(admin, 'PUT', '/api/admin/settings', { ...ACME, moneyBackDays: '14' })).status).toBe(200);
    await pageShowing(`/tr/course/${paid.id}`, '14 gün para iade garantisi');
    // Rendered for the first time just now, that page may show the change before the purge (announced
    // through PostgreSQL, milliseconds) has dropped the pages cached earlier: wait for one of those.
    await pageShowing('/en/terms', 'within 14 days of the purchase date');
    expect(text(await page('/tr/refund'))).toContain('14 gün para iade garantimiz');
    expect(text(await page('/en'))).toContain('Backed by a 14-day money-back guarantee.');
    // The paid order's mail says the same (the sample is a paid one). Rendered here, in a process that
    // follows no purges as a server does (start.ts): it drops its settings cache as a purge would.
    const mail = () => {
      forgetSettings();
      return renderMail(courseMaterials, courseMaterials.sample('tr'), { to: 'ayse@example.com', language: 'tr' }, db());
    };
    expect((await mail()).text).toContain('14 gün para iade garantiniz var');

    expect((await send(admin, 'PUT', '/api/admin/settings', { ...ACME, moneyBackDays: '0' })).status).toBe(200);
    await expect.poll(async () => text(await page(`/en/course/${paid.id}`)), { timeout: 5000 }).not.toContain('money-back');
    expect(text(await page('/en'))).not.toContain('money-back');
    expect((await mail()).text).not.toContain('para iade');
    // The shipped legal texts drop their guarantee sections, in both languages.
    for (const path of ['/en/terms', '/en/refund', '/tr/terms', '/tr/refund']) {
      const legal = text(await page(path));
      expect(legal).not.toMatch(/\d-day money-back|\d gün para iade|\d days of the purchase|\{\{/);
    }
    expect(text(await page('/en/refund'))).toContain('We do not offer a money-back guarantee beyond your legal rights.');
    expect(text(await page('/tr/refund'))).toContain('Yasal haklarınızın ötesinde bir para iade garantisi sunmuyoruz.');
    expect((await send(admin, 'PUT', '/api/admin/settings', ACME)).status).toBe(200);
  });

  it('send e-mail in the shop’s name, replies going to its support address', async () => {
    const response = await new Browser(server).postJson('/api/contact', {
      name: 'Ayşe Yılmaz',
      email: 'ayse@example.com',
      subject: 'Kurs hakkında soru',
      message: 'Kurs hakkında bir sorum var, yardımcı olur musunuz?',
    });
    expect(response.status).toBe(201);
    const mail = await db()
      .selectFrom('mail_outbox')
      .select(['recipient', 'from_name', 'reply_to'])
      .where('kind', '=', 'contact')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail).toEqual({ recipient: 'help@acme.example', from_name: 'Acme Courses', reply_to: 'ayse@example.com' });
  });

  it('left empty, show no placeholder and list what is missing on the admin overview and in the doctor', async () => {
    const response = await send(admin, 'PUT', '/api/admin/settings', { ...ACME, phone: '', legalName: '', taxNumber: '' });
    expect(response.status).toBe(200);
    const contact = await page('/en/contact');
    expect(contact).not.toContain('tel:');
    expect(await page('/en/about')).toContain(`© ${new Date().getFullYear()} Acme Courses.`);
    const overview = text(await (await admin.request('/en/admin')).text());
    expect(overview).toContain('Before you open the shop, fill in these details');
    // The shop's health, checked inside the server bundle: its migrations are found there too.
    expect(overview).toMatch(/Database: OK Reachable; \d+ migrations applied/);
    expect(overview).toMatch(/Legal entity name .*Phone .*Tax number/);
    const turkish = text(await (await admin.request('/tr/admin')).text());
    expect(turkish).toMatch(/Yasal unvan .*Telefon .*Vergi numarası/);
    const shop = (await runDoctor(db())).find((check) => check.name === 'doctor.shop');
    expect(shop).toMatchObject({ status: 'not_configured', detail: 'doctor.shopMissing', params: { count: 3 } });
  });

  it('Admin → Mail takes its forms as the browser posts them, without JavaScript: the rate, an automatic mail, a broadcast', async () => {
    const post = (path: string, fields: Record<string, string>) =>
      admin.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
        redirect: 'manual',
      });
    const refused = await post('/en/admin/mail/automatic', { form: 'rate', ratePerMinute: '0' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('A whole number from 1 to 100,000.');

    const defaults = { en: defaultTexts('review-request', 'en'), tr: defaultTexts('review-request', 'tr') };
    const saved = await post('/tr/admin/mail/automatic', {
      form: 'automatic-review-request',
      enabled: 'on',
      reviewAfterDays: '3',
      'subject-en': defaults.en.subject,
      'body-en': defaults.en.body,
      'subject-tr': 'Nasıldı?',
      'body-tr': defaults.tr.body,
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toMatch(/^\/tr\/admin\/mail\/automatic\?done=/);
    const settings = await audienceSettings();
    expect(settings.reviewAfterDays).toBe(3);
    // The default words stay the default (''), so a better translation later reaches them.
    expect(settings.automatic['review-request']).toEqual({
      enabled: true,
      texts: { en: { subject: '', body: '' }, tr: { subject: 'Nasıldı?', body: '' } },
    });
    expect(settings.automatic.welcome.enabled).toBe(true);

    const broadcast = {
      form: 'broadcast',
      intent: 'save',
      body: 'Merhaba',
      language: 'tr',
      segment: 'all',
      audienceLanguage: 'any',
      topic: 'articles',
    };
    const empty = await post('/tr/admin/mail', { ...broadcast, subject: '' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Bir konu yazın.');
    const created = await post('/tr/admin/mail', { ...broadcast, subject: 'Yeni kurs' });
    expect(created.status).toBe(303);
    const id = new URL(created.headers.get('location')!, 'http://shop.test').searchParams.get('id')!;
    // Its topic, as the radio button posted it: only subscribers who kept "New blog articles" get it.
    expect((await db().selectFrom('broadcasts').select('topic').where('id', '=', id).executeTakeFirstOrThrow()).topic).toBe(
      'articles',
    );
    const page = await (await admin.request(`/tr/admin/mail?id=${id}`)).text();
    expect(page).toContain(`/api/admin/broadcasts/${id}/preview`);
    const preview = await admin.request(`/api/admin/broadcasts/${id}/preview`);
    expect(preview.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(await preview.text()).toContain('Merhaba');
    expect((await buyer.request(`/api/admin/broadcasts/${id}/preview`)).status).toBe(403);
  });
});
