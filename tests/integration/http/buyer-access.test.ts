import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { LINK_TOKEN_SLOT } from '../../../functions/auth/link-tokens.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { plainText, startSmtpServer, type ReceivedMail } from '../../support/smtp.ts';
import { signedEvent, startFakeStripe } from '../../support/fake-stripe.ts';
import { uniqueEmail } from '../../support/factories.ts';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let freeCourse: { id: string; title: string };
let paidCourse: { id: string; title: string; price_minor: number; currency: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  stripe = await startFakeStripe();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    ...stripe.settings,
  });
  freeCourse = await db()
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('price_minor', '=', 0)
    .where('language', '=', 'en')
    .executeTakeFirstOrThrow();
  paidCourse = await db()
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor', 'currency'])
    .where('price_minor', '>', 0)
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await server.stop();
  await stripe.stop();
  await smtp.stop();
});

const html = { headers: { Accept: 'text/html' } };

const mailTo = (email: string, containing: string) =>
  smtp.waitFor((message) => message.to.includes(email) && plainText(message.raw).includes(containing));

/** The sign-in link in a mail, as the path the browser opens. */
function signInLinkIn(mail: ReceivedMail): string {
  const link = plainText(mail.raw).match(/https?:\/\/\S+\/api\/auth\/magic-link\/verify\?\S+/);
  expect(link, 'a sign-in link in the mail').not.toBeNull();
  const url = new URL(link![0]);
  return url.pathname + url.search;
}

async function checkout(browser: Browser, courseId: string, email: string, language: 'en' | 'tr' = 'en') {
  const response = await browser.postJson('/api/checkout', {
    acceptTerms: true,
    waiveWithdrawal: true,
    courseId,
    email,
    fullName: 'Ayşe Yılmaz',
    language,
  });
  expect(response.status).toBe(200);
  const url = new URL(((await response.json()) as { redirectUrl: string }).redirectUrl, server.url);
  return url.pathname + url.search;
}

async function signedInUser(browser: Browser): Promise<{ email: string } | null> {
  return ((await (await browser.request('/api/session')).json()) as { user: { email: string } | null }).user;
}

describe('instant access', () => {
  it('offers the download on the success page to the browser that checked out, and to nobody else', async () => {
    const buyer = new Browser(server);
    const successUrl = await checkout(buyer, freeCourse.id, uniqueEmail('instant'));
    const page = await (await buyer.request(successUrl)).text();
    const download = page.match(/href="([^"]*\/api\/downloads\/[\w-]+)"/);
    expect(download, 'a download link on the success page').not.toBeNull();
    const file = await buyer.request(new URL(download![1]!, server.url).pathname);
    expect(file.status).toBe(302);

    const stranger = await (await new Browser(server).request(successUrl)).text();
    expect(stranger).toContain(freeCourse.title);
    expect(stranger).not.toMatch(/\/api\/downloads\//);
  });
});

describe('sign-in by e-mail link', () => {
  it('comes with the course: the link in the materials mail opens My Courses, signed in, once', async () => {
    const email = uniqueEmail('guest');
    await checkout(new Browser(server), freeCourse.id, email);
    const mail = await mailTo(email, 'magic-link');
    const link = signInLinkIn(mail);
    expect(link).not.toContain(LINK_TOKEN_SLOT);

    const browser = new Browser(server);
    const opened = await browser.request(link, html);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toMatch(/\/en\/dashboard\/courses$/);
    expect((await signedInUser(browser))?.email).toBe(email);
    const myCourses = await (await browser.request('/en/dashboard/courses')).text();
    expect(myCourses).toContain(freeCourse.title);
    // The outbox keeps the slot, never a live token.
    const row = await db().selectFrom('mail_outbox').select('text').where('recipient', '=', email).executeTakeFirstOrThrow();
    expect(row.text).toContain(LINK_TOKEN_SLOT);

    const again = await new Browser(server).request(link, html);
    expect(again.headers.get('location')).toMatch(/\/en\/login\?next=.*error=INVALID_TOKEN/);
  });

  it('is sent on request to an existing account only, with the same answer either way', async () => {
    const known = uniqueEmail('known');
    await checkout(new Browser(server), freeCourse.id, known, 'tr');
    await mailTo(known, 'magic-link');
    const ask = (email: string) =>
      new Browser(server).postJson('/api/auth/sign-in/magic-link', {
        email,
        callbackURL: '/tr/dashboard/courses',
        errorCallbackURL: '/tr/login',
      });
    const answers = await Promise.all([ask(known), ask(uniqueEmail('nobody'))]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await answers[0].json()).toEqual(await answers[1].json());

    const requested = await mailTo(known, 'Giriş yap');
    expect(plainText(requested.raw)).toContain('15');
    const browser = new Browser(server);
    expect((await browser.request(signInLinkIn(requested), html)).headers.get('location')).toMatch(/\/tr\/dashboard\/courses$/);
    expect((await signedInUser(browser))?.email).toBe(known);
  });

  it('stops working after 15 minutes and never leaves the site', async () => {
    const email = uniqueEmail('late');
    await checkout(new Browser(server), freeCourse.id, email);
    const link = signInLinkIn(await mailTo(email, 'magic-link'));
    await db()
      .updateTable('verifications')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('identifier', 'like', 'magic-link:%')
      .where('value', 'like', `%${email}%`)
      .execute();
    const browser = new Browser(server);
    expect((await browser.request(link, html)).headers.get('location')).toMatch(/\/en\/login\?.*error=/);
    expect(await signedInUser(browser)).toBeNull();

    const ask = (callbackURL: string) => new Browser(server).postJson('/api/auth/sign-in/magic-link', { email, callbackURL });
    expect((await ask('https://evil.example/steal')).status).toBe(403);
    expect((await ask('/en/courses')).status).toBe(200);
    const fresh = new URL(signInLinkIn(await mailTo(email, 'No password needed')), server.url);
    expect(fresh.searchParams.get('callbackURL')).toBe('/en/courses');
    fresh.searchParams.set('callbackURL', 'https://evil.example/steal');
    const tampered = await new Browser(server).request(fresh.pathname + fresh.search, html);
    expect(tampered.status).toBe(403);
    expect(tampered.headers.get('location')).toBeNull();
  });
});

describe('an account someone else opened with the buyer’s address', () => {
  it('shows them nothing the buyer bought, and loses its password when the buyer signs in', async () => {
    const victim = uniqueEmail('victim');
    const attacker = new Browser(server);
    const signUp = await attacker.postJson('/api/auth/sign-up/email', {
      name: 'Not The Owner',
      email: victim,
      password: 'attacker pass 1',
      language: 'en',
    });
    expect(signUp.status).toBe(200);

    await checkout(new Browser(server), freeCourse.id, victim);
    const session = (await (await attacker.request('/api/session')).json()) as { owned: unknown[] };
    expect(session.owned).toEqual([]);
    const page = await (await attacker.request('/en/dashboard/courses')).text();
    expect(page).not.toContain(freeCourse.title);

    // What the stranger set up before enrolment waited for a proven address: an authenticator, a passkey.
    const strangerId = await armedByStranger(victim);

    const owner = new Browser(server);
    await owner.request(signInLinkIn(await mailTo(victim, 'magic-link')), html);
    expect((await owner.request('/en/dashboard/courses').then((r) => r.text())).includes(freeCourse.title)).toBe(true);
    expect(await signedInUser(attacker)).toBeNull();
    const retry = await new Browser(server).postJson('/api/auth/sign-in/email', { email: victim, password: 'attacker pass 1' });
    expect(retry.status).toBe(401);
    expect(await leftOfStranger(strangerId)).toEqual({ twoFactors: 0, passkeys: 0, twoFactorEnabled: false });
  });

  it('loses it all when the buyer opens the verification mail the stranger’s sign-up sent', async () => {
    const victim = uniqueEmail('victim-verify');
    const attacker = new Browser(server);
    await attacker.postJson('/api/auth/sign-up/email', { name: 'Not Them', email: victim, password: 'attacker pass 1' });
    const strangerId = await armedByStranger(victim);
    await checkout(new Browser(server), freeCourse.id, victim);

    const owner = new Browser(server);
    const opened = await owner.request(verificationLinkIn(await mailTo(victim, 'verify-email')), html);
    expect(opened.status).toBe(302);
    expect((await signedInUser(owner))?.email).toBe(victim);
    expect(await (await owner.request('/en/dashboard/courses')).text()).toContain(freeCourse.title);
    expect(await signedInUser(attacker)).toBeNull();
    const retry = await new Browser(server).postJson('/api/auth/sign-in/email', { email: victim, password: 'attacker pass 1' });
    expect(retry.status).toBe(401);
    expect(await leftOfStranger(strangerId)).toEqual({ twoFactors: 0, passkeys: 0, twoFactorEnabled: false });
  });

  it('loses it all when the buyer sets a password through a reset link, which proves the address', async () => {
    const victim = uniqueEmail('victim-reset');
    const attacker = new Browser(server);
    await attacker.postJson('/api/auth/sign-up/email', { name: 'Not Them', email: victim, password: 'attacker pass 1' });
    const strangerId = await armedByStranger(victim);

    expect((await new Browser(server).postJson('/api/auth/request-password-reset', { email: victim })).status).toBe(200);
    const token = plainText((await mailTo(victim, 'reset-password')).raw).match(/reset-password\?token=([\w-]+)/)![1]!;
    const owner = new Browser(server);
    const reset = await owner.postJson('/api/password-reset', {
      token,
      password: 'owner password 1',
      confirmPassword: 'owner password 1',
    });
    expect(reset.status).toBe(200);
    // Not stopped at the stranger's authenticator: signed in at once.
    expect(await reset.json()).toMatchObject({ ok: true, twoFactor: false });
    expect((await signedInUser(owner))?.email).toBe(victim);
    expect(await signedInUser(attacker)).toBeNull();
    expect(await leftOfStranger(strangerId)).toEqual({ twoFactors: 0, passkeys: 0, twoFactorEnabled: false });
    const verified = await db()
      .selectFrom('users')
      .select('email_verified')
      .where('id', '=', strangerId)
      .executeTakeFirstOrThrow();
    expect(verified.email_verified).toBe(true);
  });
});

/** The account at an address gets an authenticator and a passkey, as a stranger could add them before. */
async function armedByStranger(email: string): Promise<string> {
  const { id } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  await db().updateTable('users').set({ two_factor_enabled: true }).where('id', '=', id).execute();
  await db().insertInto('two_factors').values({ user_id: id, secret: 'sealed', backup_codes: 'sealed' }).execute();
  await db()
    .insertInto('passkeys')
    .values({
      user_id: id,
      name: 'Theirs',
      credential_id: `key-${id}`,
      public_key: Buffer.from('key'),
      device_type: 'singleDevice',
    })
    .execute();
  return id;
}

async function leftOfStranger(userId: string) {
  const count = async (table: 'two_factors' | 'passkeys') =>
    (await db().selectFrom(table).select('user_id').where('user_id', '=', userId).execute()).length;
  const user = await db().selectFrom('users').select('two_factor_enabled').where('id', '=', userId).executeTakeFirstOrThrow();
  return { twoFactors: await count('two_factors'), passkeys: await count('passkeys'), twoFactorEnabled: user.two_factor_enabled };
}

/** The verification link in a mail, as the path the browser opens. */
function verificationLinkIn(mail: ReceivedMail): string {
  const link = new URL(plainText(mail.raw).match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0]);
  return link.pathname + link.search;
}

describe('an account someone else opened with the buyer’s address, then exported and deleted', () => {
  it('exports nothing of the buyer’s, and deleting it leaves the purchase for the buyer’s next account', async () => {
    const victim = uniqueEmail('victim2');
    const attacker = new Browser(server);
    await attacker.postJson('/api/auth/sign-up/email', { name: 'Not Them', email: victim, password: 'attacker pass 1' });
    await checkout(new Browser(server), freeCourse.id, victim);
    await new Browser(server).postJson('/api/contact', {
      name: 'Real Owner',
      email: victim,
      subject: 'A question',
      message: 'Only the real owner of this address wrote this.',
      language: 'en',
    });
    await new Browser(server).postJson('/api/audience/subscribe', {
      email: victim,
      source: 'footer',
      page: '/en/',
      language: 'en',
    });

    const exported = (await (await attacker.request('/api/account/export')).json()) as {
      orders: unknown[];
      contactMessages: unknown[];
      newsSubscription: unknown;
    };
    expect(exported.orders).toEqual([]);
    expect(exported.contactMessages).toEqual([]);
    expect(exported.newsSubscription).toBeNull();

    expect((await attacker.postJson('/api/account/delete', { password: 'attacker pass 1', confirm: true })).status).toBe(200);
    const kept = await db().selectFrom('purchases').select(['email', 'user_id']).where('email', '=', victim).execute();
    expect(kept).toEqual([{ email: victim, user_id: null }]);

    const owner = new Browser(server);
    await checkout(owner, paidCourse.id, victim);
    const account = await db().selectFrom('users').select('id').where('email', '=', victim).executeTakeFirstOrThrow();
    expect(await db().selectFrom('purchases').select('user_id').where('email', '=', victim).execute()).toEqual([
      { user_id: account.id },
      { user_id: account.id },
    ]);
  });
});

describe('after the sale', () => {
  it('tells the buyer in their language when a payment is refunded, and a won dispute gives the course back', async () => {
    const email = uniqueEmail('refund');
    const redirect = await checkout(new Browser(server), paidCourse.id, email, 'tr');
    const sessionId = redirect.split('/').pop()!;
    const order = await db().selectFrom('purchases').selectAll().where('payment_id', '=', sessionId).executeTakeFirstOrThrow();
    const intent = stripe.pay(sessionId, order.id);
    const deliver = (type: string, object: Record<string, unknown>) => {
      const event = signedEvent({ id: `evt_${randomUUID()}`, type, data: { object } });
      return server.fetch('/api/stripe/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
        body: event.payload,
      });
    };
    await deliver('checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      payment_status: 'paid',
      amount_total: paidCourse.price_minor,
      currency: paidCourse.currency.toLowerCase(),
      metadata: { order_id: order.id },
      payment_intent: intent,
    });
    const status = async () =>
      (await db().selectFrom('purchases').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status;
    expect(await status()).toBe('completed');

    await deliver('charge.dispute.created', { id: 'dp_1', object: 'dispute', payment_intent: intent, metadata: {} });
    expect(await status()).toBe('disputed');
    await deliver('charge.dispute.closed', {
      id: 'dp_1',
      object: 'dispute',
      status: 'won',
      payment_intent: intent,
      metadata: {},
    });
    expect(await status()).toBe('completed');

    await deliver('charge.refunded', { id: 'ch_1', object: 'charge', refunded: true, payment_intent: intent, metadata: {} });
    await deliver('charge.refunded', { id: 'ch_1', object: 'charge', refunded: true, payment_intent: intent, metadata: {} });
    expect(await status()).toBe('refunded');
    const notice = await mailTo(email, 'iade');
    expect(plainText(notice.raw)).toContain(paidCourse.title);
    const notices = await db()
      .selectFrom('mail_outbox')
      .select('subject')
      .where('recipient', '=', email)
      .where('subject', 'like', 'İade edildi%')
      .execute();
    expect(notices).toHaveLength(1);
    const page = await (await new Browser(server).request(`/tr/checkout/success?session_id=${sessionId}`)).text();
    expect(page).toContain('Bu sipariş iade edildi');
    expect(page).not.toMatch(/\/api\/downloads\//);
  });
});

describe('an account made at checkout', () => {
  it('gets a first password once, then changes it only with the old one', async () => {
    const email = uniqueEmail('nopass');
    await checkout(new Browser(server), freeCourse.id, email);
    const browser = new Browser(server);
    await browser.request(signInLinkIn(await mailTo(email, 'magic-link')), html);
    expect((await browser.postJson('/api/account/password', { newPassword: 'short' })).status).toBe(400);
    expect((await browser.postJson('/api/account/password', { newPassword: 'my own pass 1' })).status).toBe(200);
    expect((await browser.postJson('/api/account/password', { newPassword: 'taking over 2' })).status).toBe(409);
    const signIn = await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'my own pass 1' });
    expect(signIn.status).toBe(200);
    expect((await new Browser(server).postJson('/api/account/password', { newPassword: 'anonymous 12' })).status).toBe(401);
  });

  it('sets its first password in Settings without JavaScript: the form posted to the page, checked and saved', async () => {
    const email = uniqueEmail('nopass-form');
    await checkout(new Browser(server), freeCourse.id, email);
    const browser = new Browser(server);
    await browser.request(signInLinkIn(await mailTo(email, 'magic-link')), html);
    const post = (fields: Record<string, string>) =>
      browser.request('/tr/dashboard/settings', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ form: 'set-password', ...fields }).toString(),
      });
    const mismatched = await post({ newPassword: 'ilk şifrem 2026', confirmPassword: 'başka şifre 2026' });
    expect(mismatched.status).toBe(400);
    const page = await mismatched.text();
    expect(page).toContain('Şifreler eşleşmiyor');
    expect(page).not.toContain('şifrem 2026');
    const saved = await post({ newPassword: 'ilk şifrem 2026', confirmPassword: 'ilk şifrem 2026' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/tr/dashboard/settings?saved=password-set');
    expect(await (await browser.request('/tr/dashboard/settings?saved=password-set')).text()).toContain('Şifre belirlendi');
    const signIn = await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'ilk şifrem 2026' });
    expect(signIn.status).toBe(200);
  });
});

describe('own your data', () => {
  it('exports everything kept about the account, and deletes it only after the password', async () => {
    const email = uniqueEmail('leaving');
    const browser = await signedInBrowser(server, { role: 'user', email, password: 'leaving pass 1' });
    await checkout(browser, freeCourse.id, email);
    await browser.postJson('/api/audience/subscribe', { email, source: 'course', page: '/en/course/x', language: 'en' });

    const exported = await browser.request('/api/account/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="microcourses-my-data-/);
    const data = (await exported.json()) as {
      account: { email: string };
      orders: { course: string }[];
      newsSubscription: { subscriber: { status: string }; consents: { source: string; confirmedAt: string | null }[] };
    };
    expect(data.account.email).toBe(email);
    expect(data.orders.map((order) => order.course)).toContain(freeCourse.title);
    expect(data.newsSubscription.subscriber.status).toBe('pending');
    expect(data.newsSubscription.consents).toMatchObject([{ source: 'course', confirmedAt: null }]);
    expect((await new Browser(server).request('/api/account/export')).status).toBe(401);

    const wrong = await browser.postJson('/api/account/delete', { password: 'not my pass', confirm: true });
    expect(wrong.status).toBe(403);
    expect(await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeDefined();

    expect((await browser.postJson('/api/account/delete', { password: 'leaving pass 1', confirm: true })).status).toBe(200);
    expect(await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect(await signedInUser(browser)).toBeNull();
    // The sale stays in the books, with no trace of who made it.
    const kept = await db().selectFrom('purchases').select('email').where('email', '=', email).execute();
    expect(kept).toEqual([]);
  });
});

describe('changing the e-mail address', () => {
  it('takes effect only when the new address answers, and the library follows the account', async () => {
    const email = uniqueEmail('moving');
    const browser = await signedInBrowser(server, { role: 'user', email });
    await checkout(browser, freeCourse.id, email);
    const newEmail = uniqueEmail('moved');
    const asked = await browser.postJson('/api/auth/change-email', {
      newEmail,
      callbackURL: '/en/dashboard/settings?email=changed',
    });
    expect(asked.status).toBe(200);
    expect((await signedInUser(browser))?.email).toBe(email);
    expect((await browser.postJson('/api/auth/change-email', { newEmail, callbackURL: 'https://evil.example' })).status).toBe(
      403,
    );

    const mail = await mailTo(newEmail, 'verify-email');
    const link = new URL(plainText(mail.raw).match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0]);
    const opened = await browser.request(link.pathname + link.search, html);
    expect(opened.headers.get('location')).toMatch(/\/en\/dashboard\/settings\?email=changed$/);
    expect((await signedInUser(browser))?.email).toBe(newEmail);
    expect(await (await browser.request('/en/dashboard/courses')).text()).toContain(freeCourse.title);
  });
});

describe('sign-up', () => {
  it('mails a link that verifies the address', async () => {
    const email = uniqueEmail('verify');
    const browser = new Browser(server);
    await browser.postJson('/api/auth/sign-up/email', { name: 'Ece', email, password: 'verify pass 1', language: 'tr' });
    const verified = await new Browser(server).request(verificationLinkIn(await mailTo(email, 'verify-email')), html);
    expect(verified.status).toBe(302);
    const row = await db().selectFrom('users').select('email_verified').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.email_verified).toBe(true);
  });

  it('keeps the password and the session when the browser that signed up opens the verification link', async () => {
    const email = uniqueEmail('verify-same');
    const browser = new Browser(server);
    await browser.postJson('/api/auth/sign-up/email', { name: 'Ece', email, password: 'verify pass 1', language: 'tr' });
    expect((await browser.request(verificationLinkIn(await mailTo(email, 'verify-email')), html)).status).toBe(302);
    expect((await signedInUser(browser))?.email).toBe(email);
    const again = await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'verify pass 1' });
    expect(again.status).toBe(200);
  });
});
