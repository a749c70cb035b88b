import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { Browser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { plainText, startSmtpServer } from '../../support/smtp.ts';
import { uniqueEmail } from '../../support/factories.ts';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT: 'on' });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

async function signUp(browser: Browser, email: string, password = 'correct horse 1') {
  return browser.postJson('/api/auth/sign-up/email', { name: 'Test Buyer', email, password, language: 'tr' });
}

describe('sign-up and sign-in', () => {
  it('creates an account, signs it in and opens the dashboard', async () => {
    const browser = new Browser(server);
    const email = uniqueEmail('new');
    expect((await signUp(browser, email)).status).toBe(200);
    const session = await (await browser.request('/api/session')).json();
    expect(session.user).toMatchObject({ email, fullName: 'Test Buyer', role: 'user', language: 'tr' });
    expect((await browser.request('/tr/dashboard')).status).toBe(200);
  });

  it('answers a sign-up the same whether or not the address has an account; only the owner is told', async () => {
    const owner = uniqueEmail('taken');
    await ensureUser(db(), { email: owner, password: 'owner password 1', fullName: 'Owner', role: 'user', language: 'tr' });
    const timed = async (email: string) => {
      const browser = new Browser(server);
      const started = performance.now();
      const response = await signUp(browser, email, 'stranger pass 1');
      return { browser, response, ms: performance.now() - started };
    };
    const fresh = await timed(uniqueEmail('fresh'));
    const taken = await timed(owner);
    console.log(`sign-up answered in ${fresh.ms.toFixed(0)} ms (new address) and ${taken.ms.toFixed(0)} ms (taken address)`);
    expect(taken.response.status).toBe(fresh.response.status);
    expect(fresh.response.status).toBe(200);
    expect(await taken.response.json()).toEqual(await fresh.response.json());
    const headerNames = (response: Response) => [...response.headers.keys()].filter((name) => name !== 'set-cookie').sort();
    expect(headerNames(taken.response)).toEqual(headerNames(fresh.response));
    // The new account is signed in; the taken address's account is untouched and its owner told, in their language.
    expect(((await (await fresh.browser.request('/api/session')).json()) as { user: unknown }).user).not.toBeNull();
    expect(((await (await taken.browser.request('/api/session')).json()) as { user: unknown }).user).toBeNull();
    const signIn = await new Browser(server).postJson('/api/auth/sign-in/email', { email: owner, password: 'owner password 1' });
    expect(signIn.status).toBe(200);
    const told = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text'])
      .where('recipient', '=', owner)
      .where('kind', '=', 'security-notice')
      .execute();
    expect(told.map((mail) => mail.subject)).toEqual([expect.stringContaining('Birisi adresinizle')]);
    expect(told[0]!.text).toContain('Hesap oluşturulmadı');
  });

  it('never lets a sign-up choose its own role', async () => {
    const browser = new Browser(server);
    const email = uniqueEmail('sneaky');
    await browser.postJson('/api/auth/sign-up/email', { name: 'Sneaky', email, password: 'correct horse 1', role: 'admin' });
    const row = await db().selectFrom('users').select('role').where('email', '=', email).executeTakeFirst();
    expect(row?.role ?? 'user').toBe('user');
    expect((await browser.request('/en/admin')).headers.get('location')).not.toContain('/admin');
  });

  it('refuses short passwords and wrong passwords, without a 500', async () => {
    const browser = new Browser(server);
    const email = uniqueEmail('short');
    expect((await signUp(browser, email, 'short')).status).toBe(400);
    await signUp(browser, email);
    const wrong = await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    const right = await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'correct horse 1' });
    expect(right.status).toBe(200);
  });

  it('sets HttpOnly, SameSite=Lax session cookies and ends the session on sign-out', async () => {
    const browser = new Browser(server);
    const response = await signUp(browser, uniqueEmail('cookie'));
    const cookie = response.headers.getSetCookie().find((value) => value.includes('session_token'))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const token = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!).split('.')[0]!;
    expect((await browser.postJson('/api/auth/sign-out', {})).status).toBe(200);
    expect(await db().selectFrom('sessions').select('id').where('token', '=', token).executeTakeFirst()).toBeUndefined();
    expect((await browser.request('/en/dashboard')).status).toBe(302);
  });

  it('answers malformed bodies with 4xx, never 500', async () => {
    for (const body of ['', '{', 'null', '[]', '{"email":1,"password":{}}', 'x'.repeat(100_000)]) {
      const response = await server.fetch('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body.slice(0, 20)).toBeLessThan(500);
    }
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per client address with 429', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await new Browser(server, '203.0.113.50').postJson('/api/auth/sign-in/email', {
        email: uniqueEmail('nobody'),
        password: 'whatever-123',
      });
      statuses.push(response.status);
    }
    expect(statuses).toContain(429);
  });
});

describe('password recovery', () => {
  it('mails a working link that resets once, signs in and ends every other session', async () => {
    const email = uniqueEmail('reset');
    const laptop = new Browser(server);
    await signUp(laptop, email);
    expect((await laptop.request('/api/session').then((r) => r.json())).user).not.toBeNull();

    const phone = new Browser(server);
    expect((await phone.postJson('/api/auth/request-password-reset', { email })).status).toBe(200);
    const mail = await smtp.waitFor((message) => message.to.includes(email) && message.raw.includes('reset-password'));
    const text = plainText(mail.raw);
    expect(text).toContain('Merhaba Test Buyer');
    const link = text.match(/https?:\/\/\S+reset-password\?token=([\w-]+)/);
    expect(link).not.toBeNull();
    const token = link![1]!;
    expect(new URL(link![0]).pathname).toBe('/tr/reset-password');

    expect(await (await phone.request(`/api/password-reset?token=${token}`)).json()).toEqual({ valid: true });
    const reset = await phone.postJson('/api/password-reset', {
      token,
      password: 'brand new pass 2',
      confirmPassword: 'brand new pass 2',
    });
    expect(reset.status).toBe(200);
    expect((await phone.request('/api/session').then((r) => r.json())).user.email).toBe(email);
    expect((await laptop.request('/api/session').then((r) => r.json())).user).toBeNull();

    const again = await phone.postJson('/api/password-reset', {
      token,
      password: 'another pass 33',
      confirmPassword: 'another pass 33',
    });
    expect(again.status).toBe(400);
    expect(await (await phone.request(`/api/password-reset?token=${token}`)).json()).toEqual({ valid: false });
    expect((await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'brand new pass 2' })).status).toBe(
      200,
    );
  });

  it('refuses an expired link', async () => {
    const email = uniqueEmail('expired');
    await signUp(new Browser(server), email);
    await new Browser(server).postJson('/api/auth/request-password-reset', { email });
    const token = plainText(
      (await smtp.waitFor((message) => message.to.includes(email) && message.raw.includes('reset-password'))).raw,
    ).match(/token=([\w-]+)/)![1]!;
    await db()
      .updateTable('verifications')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('identifier', '=', `reset-password:${token}`)
      .execute();
    expect(await (await server.fetch(`/api/password-reset?token=${token}`)).json()).toEqual({ valid: false });
    const response = await new Browser(server).postJson('/api/password-reset', {
      token,
      password: 'brand new pass 2',
      confirmPassword: 'brand new pass 2',
    });
    expect(response.status).toBe(400);
  });

  it('answers the same way whether or not the address has an account', async () => {
    const known = uniqueEmail('known');
    await signUp(new Browser(server), known);
    const a = await new Browser(server).postJson('/api/auth/request-password-reset', { email: known });
    const b = await new Browser(server).postJson('/api/auth/request-password-reset', { email: uniqueEmail('unknown') });
    expect(a.status).toBe(b.status);
    expect(await a.json()).toEqual(await b.json());
  });
});

describe('settings', () => {
  it('changes the password only with the right current password', async () => {
    const browser = new Browser(server);
    const email = uniqueEmail('settings');
    await signUp(browser, email);
    const wrong = await browser.postJson('/api/auth/change-password', {
      currentPassword: 'not it at all',
      newPassword: 'new password 99',
      revokeOtherSessions: true,
    });
    expect(wrong.status).toBe(400);
    const right = await browser.postJson('/api/auth/change-password', {
      currentPassword: 'correct horse 1',
      newPassword: 'new password 99',
      revokeOtherSessions: true,
    });
    expect(right.status).toBe(200);
    expect((await new Browser(server).postJson('/api/auth/sign-in/email', { email, password: 'new password 99' })).status).toBe(
      200,
    );
  });

  it('updates name and language', async () => {
    const browser = new Browser(server);
    await signUp(browser, uniqueEmail('profile'));
    expect((await browser.postJson('/api/auth/update-user', { name: 'Zeynep Işık', language: 'en' })).status).toBe(200);
    expect((await browser.request('/api/session').then((r) => r.json())).user).toMatchObject({
      fullName: 'Zeynep Işık',
      language: 'en',
    });
  });
});

describe('guards', () => {
  it('send each kind of visitor where they belong, however the path is spelled', async () => {
    const buyer = new Browser(server);
    await signUp(buyer, uniqueEmail('buyer'));
    const admin = new Browser(server);
    const adminEmail = uniqueEmail('admin');
    await ensureUser(db(), { email: adminEmail, password: 'admin password 1', fullName: 'Admin', role: 'admin' });
    await admin.postJson('/api/auth/sign-in/email', { email: adminEmail, password: 'admin password 1' });
    const anonymous = new Browser(server);

    for (const path of ['/en/admin', '/en/%61dmin', '/en/%2561dmin', '/en/admin/', '/en//admin']) {
      const toLogin = await anonymous.request(path);
      expect(toLogin.status, path).toBe(302);
      expect(toLogin.headers.get('location'), path).toMatch(/\/en\/login\?next=/);
      const toDashboard = await buyer.request(path);
      expect(toDashboard.headers.get('location'), path).toBe('/en/dashboard');
    }
    expect((await anonymous.request('/tr/dashboard/settings')).headers.get('location')).toBe(
      '/tr/login?next=%2Ftr%2Fdashboard%2Fsettings',
    );
    expect((await buyer.request('/tr/dashboard/settings')).status).toBe(200);
    expect((await anonymous.request('/api/account/anything')).status).toBe(401);
    expect((await anonymous.request('/api/admin/anything')).status).toBe(401);
    expect((await buyer.request('/api/admin/anything')).status).toBe(403);
    expect((await buyer.request('/api/%61dmin/anything')).status).toBe(403);
    expect((await admin.request('/en/dashboard')).status).toBe(200);
    const adminPage = await admin.request('/en/admin');
    expect(adminPage.headers.get('location') ?? '').not.toContain('/login');
    expect((await buyer.request('/tr/dashboard')).headers.get('cache-control')).toContain('no-store');
  });
});
