import { toPlainText } from '@react-email/render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUser } from '../../../functions/auth/users.ts';
import { saveContactMessage } from '../../../functions/contact/contact.ts';
import { db } from '../../../functions/db/database.ts';
import { queueCourseUpdateNotice } from '../../../functions/mail/course-update-notice.ts';
import { queueMail } from '../../../functions/mail/outbox.ts';
import { accountOfToken, unsubscribeToken, wantsCourseUpdates } from '../../../functions/mail/preferences.ts';
import { MAIL_SAMPLES } from '../../../functions/mail/templates/index.ts';
import { deliverDueMail, smtpTransport } from '../../../functions/mail/worker.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';
import { mailHeaders, plainText, startSmtpServer, type ReceivedMail } from '../../support/smtp.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { enrolTwoFactor } from '../../support/two-factor.ts';
import { subscribeAtCheckout } from '../../../functions/audience/checkout.ts';
import en from '../../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../../src/i18n/locales/tr.json' with { type: 'json' };

const FROM = 'MicroCourses <no-reply@microcourses.example>';
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TestServer;
let admin: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // No SMTP and no dev mailbox: the shop's own worker sends nothing, so every mail leaves through this test's worker.
  server = await startTestServer({ DEV_TOOLS: 'off' });
  // Without the developer tools, the admin area asks for two-factor first.
  admin = await signedInBrowser(server, { role: 'admin', password: 'admin password 1' });
  await enrolTwoFactor(admin, 'admin password 1');
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

/** Sends everything queued through real SMTP; returns what arrived for `to`. */
async function deliverTo(to: string): Promise<ReceivedMail[]> {
  while ((await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).sent > 0);
  await smtp.waitFor((message) => message.to.includes(to));
  return smtp.messages.filter((message) => message.to.includes(to));
}

describe('every kind of e-mail, as a real SMTP server receives it', () => {
  it('comes from the shop by name, answers to support, has a Message-ID on the site, both parts (the text react-email converts from the HTML), and List-Unsubscribe only when optional', async () => {
    const site = new URL(process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321').hostname;
    for (const sample of MAIL_SAMPLES) {
      for (const language of LANGUAGES) {
        const to = `${sample.kind}-${language}@example.com`;
        const mail = await sample.render(language);
        const id = await queueMail(db(), { ...mail, to });
        const [received] = await deliverTo(to);
        const where = `${sample.kind} (${language})`;
        // The text part is react-email's own conversion (template.ts compiles it once).
        expect(mail.text, where).toBe(toPlainText(mail.html));
        expect(received, where).toBeDefined();
        const head = mailHeaders(received!.raw);
        expect(head.from, where).toBe('MicroCourses <no-reply@microcourses.example>');
        expect(head['reply-to'], where).toBe('support@microcourses.example');
        expect(head['message-id'], where).toBe(`<${id}@${site}>`);
        expect(received!.raw, where).toMatch(/Content-Type: text\/plain; charset=utf-8/i);
        expect(received!.raw, where).toMatch(/Content-Type: text\/html; charset=utf-8/i);
        expect(plainText(received!.raw).length, where).toBeGreaterThan(100);
        if (sample.optional) {
          expect(head['list-unsubscribe'], where).toMatch(/^<https:\/\/shop\.example\/api\/mail\/unsubscribe\?token=.+>$/);
          expect(head['list-unsubscribe-post'], where).toBe('List-Unsubscribe=One-Click');
        } else expect(head['list-unsubscribe'], where).toBeUndefined();
      }
    }
  });

  it('sends a contact-form message to the shop, answering to the person who wrote', async () => {
    await saveContactMessage(
      { name: 'Şule Işıklı', email: 'sule@example.com', subject: 'Fatura sorusu', message: 'Merhaba, fatura alabilir miyim?' },
      'tr',
    );
    const [received] = await deliverTo('support@microcourses.example');
    const head = mailHeaders(received!.raw);
    expect(head['reply-to']).toBe('sule@example.com');
    expect(plainText(received!.raw)).toContain('Merhaba, fatura alabilir miyim?');
  });
});

describe('course update notices', () => {
  it('go to buyers who want them, and stop with one click from the mail client', async () => {
    const email = 'update-reader@example.com';
    const { id } = await ensureUser(db(), {
      email,
      password: 'correct horse 42',
      fullName: 'Update Reader',
      role: 'user',
      language: 'tr',
    });
    const reader = { userId: id, email, name: 'Update Reader', language: 'tr' as const };
    const course = { title: 'Bütçe Temelleri', updatedOn: '24 Kasım 2026' };
    expect(await queueCourseUpdateNotice(db(), { ...reader, wantsUpdates: (await wantsCourseUpdates(id))! }, course)).toBe(true);
    const [notice] = await deliverTo(email);
    expect(plainText(notice!.raw)).toContain('Bütçe Temelleri');
    const oneClick = mailHeaders(notice!.raw)['list-unsubscribe']!.slice(1, -1);
    const token = new URL(oneClick).searchParams.get('token')!;
    expect(accountOfToken(token)).toBe(id);

    // Mail clients POST from their own servers, without an Origin.
    const post = (target: string) =>
      fetch(`${server.url}/api/mail/unsubscribe?token=${encodeURIComponent(target)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const tampered = `${token.slice(0, -2)}xx`;
    expect((await post(tampered)).status).toBe(404);
    expect(await wantsCourseUpdates(id)).toBe(true);
    expect((await post(token)).status).toBe(200);
    expect(await wantsCourseUpdates(id)).toBe(false);
    expect((await post(token)).status).toBe(200);

    expect(await queueCourseUpdateNotice(db(), { ...reader, wantsUpdates: false }, course)).toBe(false);
    expect(await deliverTo(email)).toHaveLength(1);
  });

  it('have a page that changes nothing when opened, and turns them back on with its button', async () => {
    const { id } = await ensureUser(db(), {
      email: 'page-reader@example.com',
      password: 'correct horse 42',
      fullName: 'Page Reader',
      role: 'user',
    });
    const token = unsubscribeToken(id);
    const page = await server.fetch(`/en/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await page.text()).toContain('You get an e-mail when a course you own gets a new version.');
    expect(await wantsCourseUpdates(id)).toBe(true);

    const stop = await server.fetch('/api/mail/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, lang: 'tr', choice: 'stop' }).toString(),
    });
    expect(stop.status).toBe(303);
    expect(stop.headers.get('location')).toBe(`/tr/unsubscribe?token=${encodeURIComponent(token)}&done=stop`);
    expect(await wantsCourseUpdates(id)).toBe(false);
    const turkish = await (await server.fetch(stop.headers.get('location')!)).text();
    expect(turkish).toContain('Tamam: artık kurs güncelleme e-postası gelmeyecek.');

    const resume = await server.fetch('/api/mail/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, lang: 'en', choice: 'resume' }).toString(),
    });
    expect(resume.status).toBe(303);
    expect(await wantsCourseUpdates(id)).toBe(true);
    expect(await (await server.fetch('/en/unsubscribe?token=forged.token-that-is-long-enough')).text()).toContain(
      'This link is not valid.',
    );
  });
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The sign-up form as a browser posts it (from the footer, an article or a course page). */
function postSignUp(browser: Browser, lang: 'en' | 'tr', fields: Record<string, string>): Promise<Response> {
  return browser.request(`/${lang}/subscribe`, {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({ form: 'subscribe', ...fields }).toString(),
  });
}

/** The mail to `to` that says `text` (its button's words), after `seen` of them arrived. */
async function nextMail(to: string, text: string, seen = 0): Promise<ReceivedMail> {
  const matching = (mail: ReceivedMail) => mail.to.includes(to) && plainText(mail.raw).includes(text);
  while ((await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).sent > 0);
  await expect.poll(() => smtp.messages.filter(matching).length, { timeout: 15_000 }).toBeGreaterThan(seen);
  return smtp.messages.filter(matching)[seen]!;
}

const confirmToken = (mail: ReceivedMail) => /\/subscribe\/confirm\?token=([\w-]+)/.exec(plainText(mail.raw))![1]!;

function confirm(browser: Browser, lang: 'en' | 'tr', token: string): Promise<Response> {
  return browser.request(`/${lang}/subscribe/confirm`, { method: 'POST', headers: FORM, body: `token=${token}` });
}

const subscriberOf = (email: string) =>
  db().selectFrom('subscribers').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
const consentsOf = (id: string) =>
  db().selectFrom('subscriber_consents').selectAll().where('subscriber_id', '=', id).orderBy('created_at').execute();

/**
 * Subscribers (issue 39): sign-up forms posted as a browser without JavaScript posts them, double
 * opt-in through real SMTP, one-click unsubscribe as a mail client sends it, the preferences page,
 * and what the admin exports as proof of consent.
 */
describe('subscribers', () => {
  it('subscribe, confirm, one-click unsubscribe, come back from the preferences page, and leave from it', async () => {
    const email = 'reader-flow@example.com';
    const reader = new Browser(server);
    const posted = await postSignUp(reader, 'tr', { email, source: 'blog', page: '/tr/blog/ilk-butce' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/tr/subscribe?sent=1');
    expect(await (await reader.request('/tr/subscribe?sent=1')).text()).toContain(tr['audience.sent']);

    const subscriber = await subscriberOf(email);
    expect(subscriber.status).toBe('pending');
    const [asked] = await consentsOf(subscriber.id);
    expect(asked).toMatchObject({
      action: 'grant',
      wording_key: 'audience.consentForm',
      wording_text: tr['audience.consentForm'],
      source: 'blog',
      page: '/tr/blog/ilk-butce',
      language: 'tr',
      client_ip: reader.address,
      confirmed_at: null,
    });
    expect(asked!.wording_version).toMatch(/^[0-9a-f]{12}$/);

    // In the page's language, with nothing to unsubscribe from yet.
    const confirmation = await nextMail(email, tr['mail.subscribeButton']);
    expect(mailHeaders(confirmation.raw)['list-unsubscribe']).toBeUndefined();
    const token = confirmToken(confirmation);
    // Opening the link (a mail scanner does) confirms nothing; its button does.
    const page = await reader.request(`/tr/subscribe/confirm?token=${token}`);
    expect(await page.text()).toContain(tr['audience.confirm.button']);
    expect((await subscriberOf(email)).status).toBe('pending');
    const confirmed = await confirm(reader, 'tr', token);
    expect(confirmed.status).toBe(303);
    const preferences = confirmed.headers.get('location')!;
    expect(preferences).toMatch(/^\/tr\/subscription\?token=.+&done=confirmed$/);
    expect((await subscriberOf(email)).status).toBe('active');
    expect((await consentsOf(subscriber.id))[0]!.confirmed_at).toBeInstanceOf(Date);
    // The link works once.
    const again = await confirm(reader, 'tr', token);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(tr['audience.confirm.used']);

    // The welcome is marketing: one-click unsubscribe (RFC 8058) and the preferences page in its footer.
    const welcome = await nextMail(email, tr['mail.welcomeButton']);
    const head = mailHeaders(welcome.raw);
    expect(head['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /^<(.+)>$/.exec(head['list-unsubscribe']!)![1]!;
    expect(oneClick).toMatch(new RegExp(`^${server.url}/api/audience/unsubscribe\\?token=[^&]+&lang=tr$`));
    expect(welcome.raw.replace(/=\r?\n/g, '')).toContain('/tr/subscription?token=');

    // Mail clients post from their own servers, without an Origin; a tampered token changes nothing.
    const mailClient = (url: string) => fetch(url, { method: 'POST', headers: FORM, body: 'List-Unsubscribe=One-Click' });
    expect((await mailClient(oneClick.replace(/[\w-]{2}(?=&lang=)/, 'xx'))).status).toBe(404);
    expect((await subscriberOf(email)).status).toBe('active');
    expect((await mailClient(oneClick)).status).toBe(200);
    expect((await subscriberOf(email)).status).toBe('unsubscribed');
    expect((await mailClient(oneClick)).status).toBe(200);
    const withdrawals = (await consentsOf(subscriber.id)).filter((consent) => consent.action === 'withdraw');
    expect(withdrawals).toHaveLength(1);
    expect(withdrawals[0]).toMatchObject({ source: 'one-click', wording_key: 'rfc8058', language: 'tr' });

    // The preferences page, with the mail's token, says so; "subscribe again" is a new double opt-in.
    const prefsToken = new URL(preferences, server.url).searchParams.get('token')!;
    expect(await (await reader.request(`/tr/subscription?token=${encodeURIComponent(prefsToken)}`)).text()).toContain(
      tr['audience.prefs.rejoin'],
    );
    const prefsPost = (fields: Record<string, string>) =>
      reader.request('/en/subscription', {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({ token: prefsToken, ...fields }).toString(),
      });
    expect((await prefsPost({ choice: 'rejoin' })).headers.get('location')).toMatch(/done=rejoined$/);
    expect((await subscriberOf(email)).status).toBe('unsubscribed');
    expect((await confirm(reader, 'en', confirmToken(await nextMail(email, en['mail.subscribeButton'])))).status).toBe(303);
    expect((await subscriberOf(email)).status).toBe('active');

    const refused = await prefsPost({ choice: 'save', 'language-tr': 'on' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(en['audience.prefs.topicsRequired']);
    expect((await prefsPost({ choice: 'save', 'language-tr': 'on', 'topic-courses': 'on' })).status).toBe(303);
    expect(await subscriberOf(email)).toMatchObject({ languages: ['tr'], topics: ['courses'], status: 'active' });
    expect((await prefsPost({ choice: 'leave' })).headers.get('location')).toMatch(/done=left$/);
    expect((await subscriberOf(email)).status).toBe('unsubscribed');
    expect((await consentsOf(subscriber.id)).at(-1)).toMatchObject({ action: 'withdraw', source: 'preferences' });
  });

  it('answer a sign-up the same whether the address is new, waiting or subscribed; refuse expired, used and unknown links', async () => {
    const fresh = 'reader-new@example.com';
    const known = 'reader-known@example.com';
    const reader = new Browser(server);
    await postSignUp(reader, 'en', { email: known, source: 'footer', page: '/en/courses' });
    expect((await confirm(reader, 'en', confirmToken(await nextMail(known, en['mail.subscribeButton'])))).status).toBe(303);

    const answers = [];
    for (const email of [fresh, known, fresh]) {
      const json = await reader.postJson('/api/audience/subscribe', {
        email,
        source: 'course',
        page: '/en/course/x',
        language: 'en',
      });
      const form = await postSignUp(reader, 'en', { email, source: 'course', page: '/en/course/x' });
      answers.push([json.status, await json.text(), form.status, form.headers.get('location'), await form.text()]);
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    // A subscriber stays as they were until the new link is used; every request mailed its address.
    expect((await subscriberOf(known)).status).toBe('active');
    await nextMail(fresh, en['mail.subscribeButton'], 3);
    await nextMail(known, en['mail.subscribeButton'], 2);

    const badEmail = await postSignUp(reader, 'en', { email: 'not-an-address', source: 'footer', page: '/en/' });
    expect(badEmail.status).toBe(400);
    const shown = await badEmail.text();
    expect(shown).toContain(en['validation.emailInvalid']);
    expect(shown).toContain('value="not-an-address"');

    const token = confirmToken(await nextMail(fresh, en['mail.subscribeButton']));
    await db()
      .updateTable('subscriber_confirmations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect(await (await reader.request(`/en/subscribe/confirm?token=${token}`)).text()).toContain(en['audience.confirm.expired']);
    expect((await confirm(reader, 'en', token)).status).toBe(400);
    expect((await subscriberOf(fresh)).status).toBe('pending');
    expect(await (await reader.request('/en/subscribe/confirm?token=forged-token-forged-token-forged')).text()).toContain(
      en['audience.confirm.invalid'],
    );
  });

  it('give the admin each consent record as JSON, the list as CSV, and every consent in force in İYS columns', async () => {
    const { id } = await subscriberOf('reader-flow@example.com');
    const record = await admin.request(`/api/admin/subscribers/${id}/consent`);
    expect(record.headers.get('content-disposition')).toBe(`attachment; filename="consent-${id}.json"`);
    const { subscriber, consents } = (await record.json()) as {
      subscriber: { email: string; status: string };
      consents: Record<string, string>[];
    };
    expect(subscriber).toMatchObject({ email: 'reader-flow@example.com', status: 'unsubscribed' });
    expect(consents.map((consent) => `${consent.action} ${consent.source}`)).toEqual([
      'grant blog',
      'withdraw one-click',
      'grant preferences',
      'withdraw preferences',
    ]);
    expect(consents[0]).toMatchObject({
      wording: { key: 'audience.consentForm', text: tr['audience.consentForm'] },
      page: '/tr/blog/ilk-butce',
      language: 'tr',
      clientIp: expect.stringMatching(/^198\.51\./),
      at: expect.any(String),
      confirmedAt: expect.any(String),
    });

    const iys = await admin.request('/api/admin/subscribers/iys');
    expect(iys.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = (await iys.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe('type,recipient,status,consentDate,source,recipientType');
    const flow = rows.filter((row) => row.includes('reader-flow@example.com'));
    expect(flow.map((row) => row.split(',').filter((_, index) => index !== 3))).toEqual([
      ['EPOSTA', 'reader-flow@example.com', 'ONAY', 'HS_WEB', 'BIREYSEL'],
      ['EPOSTA', 'reader-flow@example.com', 'RET', 'HS_EPOSTA', 'BIREYSEL'],
      ['EPOSTA', 'reader-flow@example.com', 'ONAY', 'HS_WEB', 'BIREYSEL'],
      ['EPOSTA', 'reader-flow@example.com', 'RET', 'HS_WEB', 'BIREYSEL'],
    ]);
    for (const row of rows) expect(row.split(',')[3]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // A sign-up never confirmed is no consent.
    expect(rows.some((row) => row.includes('reader-new@example.com'))).toBe(false);

    const list = (await (await admin.request('/api/admin/subscribers?status=pending')).json()) as {
      subscribers: { email: string }[];
      counts: Record<string, number>;
    };
    expect(list.subscribers.map((row) => row.email)).toEqual(['reader-new@example.com']);
    expect(list.counts).toMatchObject({ pending: 1, active: 1, unsubscribed: 1 });
    const csv = await (await admin.request('/api/admin/subscribers/export?status=active')).text();
    expect(csv).toContain('reader-known@example.com,active,en,courses articles,course,');
    expect(csv).not.toContain('reader-new@example.com');
  });

  it("subscribe a buyer who ticked checkout's box, in the checkout's transaction", async () => {
    const buyer = { email: 'buyer-news@example.com', language: 'tr' as const, page: '/tr/checkout/x', clientIp: '203.0.113.9' };
    // The order failing after the box was handled: neither the subscriber nor the mail remains.
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await subscribeAtCheckout(trx, buyer);
          await trx.insertInto('subscribers').values({ email: 'x', mailbox_key: 'x', languages: [], topics: [] }).execute();
        }),
    ).rejects.toThrow();
    expect(await db().selectFrom('subscribers').where('email', '=', buyer.email).selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('mail_outbox').where('recipient', '=', buyer.email).selectAll().execute()).toEqual([]);

    await db()
      .transaction()
      .execute((trx) => subscribeAtCheckout(trx, buyer));
    const subscriber = await subscriberOf(buyer.email);
    expect(subscriber.status).toBe('pending');
    expect((await consentsOf(subscriber.id))[0]).toMatchObject({
      source: 'checkout',
      wording_key: 'audience.consentCheckout',
      wording_text: tr['audience.consentCheckout'],
      page: '/tr/checkout/x',
      client_ip: '203.0.113.9',
    });
    await nextMail(buyer.email, tr['mail.subscribeButton']);
  });
});
