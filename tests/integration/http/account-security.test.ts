import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailVerificationToken } from 'better-auth/api';
import { db } from '../../../functions/db/database.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { mintSignInToken, signInLinkUrl } from '../../../functions/auth/sign-in-link.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { authenticatorFor, enrolTwoFactor } from '../../support/two-factor.ts';
import { makeCourse, makePurchase, uniqueEmail, USER_AGENTS } from '../../support/factories.ts';

/**
 * Account security over HTTP: the sessions an account holds and how they end; two-factor where the
 * developer tools are off (a production server), with codes computed from the enrolled secret.
 */
const SECRET = 'test-secret-test-secret-test-secret-42';

let demo: TestServer;
let production: TestServer;

beforeAll(async () => {
  [demo, production] = await Promise.all([
    startTestServer(),
    startTestServer({ NODE_ENV: 'production', PRODUCTION_CHECKS: 'test-harness', DEV_TOOLS: 'off' }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([demo.stop(), production.stop()]);
});

const PASSWORD = 'correct horse 42';

async function signIn(server: TestServer, email: string, userAgent = USER_AGENTS.chrome, password = PASSWORD): Promise<Browser> {
  const browser = new Browser(server);
  const response = await browser.postJson('/api/auth/sign-in/email', { email, password }, { 'user-agent': userAgent });
  expect(response.status, `sign-in of ${email}`).toBe(200);
  return browser;
}

async function signedInAs(browser: Browser): Promise<string | null> {
  const body = (await (await browser.request('/api/session')).json()) as { user: { email: string } | null };
  return body.user?.email ?? null;
}

async function sessionIds(email: string): Promise<string[]> {
  const rows = await db()
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.id')
    .where('users.email', '=', email)
    .execute();
  return rows.map((row) => row.id);
}

/** The security mails queued for an address, oldest first (the outbox keeps them, sent or not). */
async function securityMails(to: string) {
  return db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text', 'language'])
    .where('recipient', '=', to)
    .where('kind', '=', 'security-notice')
    .orderBy('created_at')
    .execute();
}

describe('sessions', () => {
  it('lists every signed-in device with its browser and system, marks this one, and never shows a token', async () => {
    const email = uniqueEmail('devices');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Devices', role: 'user', language: 'tr' });
    const laptop = await signIn(demo, email, USER_AGENTS.chrome);
    await signIn(demo, email, USER_AGENTS.chrome);
    // The first device is remembered quietly; the same one again is no news.
    expect(await securityMails(email)).toEqual([]);
    await signIn(demo, email, USER_AGENTS.firefox);
    const [notice, ...more] = await securityMails(email);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ language: 'tr', subject: expect.stringMatching(/hesabınıza yeni bir giriş yapıldı$/) });
    expect(notice!.text).toContain('Linux üzerinde Firefox 133');
    expect(notice!.text).toContain('Bu siz değilseniz');
    expect(notice!.text).toMatch(/\/tr\/forgot-password/);
    const page = await (await laptop.request('/en/dashboard/settings')).text();
    expect(page).toContain('Chrome 131 on Windows 10');
    expect(page).toContain('Firefox 133 on Linux');
    expect(page).toContain('This device');
    const tokens = await db().selectFrom('sessions').select('token').execute();
    for (const { token } of tokens) expect(page).not.toContain(token);
    const turkish = await (await laptop.request('/tr/dashboard/settings')).text();
    expect(turkish).toContain('Windows 10 üzerinde Chrome 131');
    expect(turkish).toContain('Bu cihaz');
    // better-auth's own list answers tokens: no browser reaches it.
    expect((await laptop.request('/api/auth/list-sessions')).status).toBe(404);
  });

  it('signs out one device by its id, only the account’s own', async () => {
    const email = uniqueEmail('one');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'One', role: 'user' });
    const laptop = await signIn(demo, email, USER_AGENTS.chrome);
    const before = await sessionIds(email);
    const phone = await signIn(demo, email, USER_AGENTS.firefox);
    const phoneSession = (await sessionIds(email)).find((id) => !before.includes(id))!;
    const stranger = await signedInBrowser(demo, { role: 'user' });
    expect((await stranger.json('DELETE', `/api/account/sessions/${phoneSession}`)).status).toBe(404);
    expect(await signedInAs(phone)).toBe(email);
    expect((await laptop.json('DELETE', '/api/account/sessions/not-an-id')).status).toBe(404);
    const response = await laptop.json('DELETE', `/api/account/sessions/${phoneSession}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, current: false });
    expect(await signedInAs(phone)).toBeNull();
    expect(await signedInAs(laptop)).toBe(email);
  });

  it('signs out all other devices, then everywhere', async () => {
    const email = uniqueEmail('all');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'All', role: 'user' });
    const [laptop, phone, tablet] = [await signIn(demo, email), await signIn(demo, email), await signIn(demo, email)];
    expect((await laptop.postJson('/api/auth/revoke-other-sessions', {})).status).toBe(200);
    expect([await signedInAs(laptop), await signedInAs(phone), await signedInAs(tablet)]).toEqual([email, null, null]);
    const again = await signIn(demo, email);
    expect((await laptop.postJson('/api/auth/revoke-sessions', {})).status).toBe(200);
    expect([await signedInAs(laptop), await signedInAs(again)]).toEqual([null, null]);
    expect(await sessionIds(email)).toEqual([]);
  });

  it('a change of password ends every other session, even when the request asks otherwise', async () => {
    const email = uniqueEmail('password');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Password', role: 'user' });
    const laptop = await signIn(demo, email);
    const phone = await signIn(demo, email);
    const changed = await laptop.postJson('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a new horse 42',
      revokeOtherSessions: false,
    });
    expect(changed.status).toBe(200);
    expect(await signedInAs(laptop)).toBe(email);
    expect(await signedInAs(phone)).toBeNull();
    const notice = (await securityMails(email)).find((mail) => /password was changed$/.test(mail.subject));
    expect(notice?.text).toContain('If you did not change it, reset your password now');
  });

  it('a confirmed change of address ends every session but the one that confirmed it', async () => {
    const email = uniqueEmail('address');
    const { id } = await ensureUser(db(), { email, password: PASSWORD, fullName: 'Address', role: 'user' });
    const laptop = await signIn(demo, email);
    const phone = await signIn(demo, email);
    const newEmail = uniqueEmail('moved');
    const token = await createEmailVerificationToken(SECRET, email, newEmail, 3600, {
      requestType: 'change-email-verification',
      userId: id,
    });
    const confirmed = await laptop.request(`/api/auth/verify-email?token=${token}&callbackURL=/en/dashboard/settings`);
    expect(confirmed.status).toBe(302);
    expect(await signedInAs(laptop)).toBe(newEmail);
    expect(await signedInAs(phone)).toBeNull();
    // Told to the old address, which can no longer take the account back by itself.
    const [notice] = await securityMails(email);
    expect(notice?.subject).toMatch(/e-mail address of your .+ account was changed$/);
    expect(notice?.text).toContain(newEmail);
    expect(notice?.text).toContain('reply to this e-mail at once');
  });
});

/** As if `hits` uses of a limit's window were spent already (time passing or many requests, without either). */
async function spendLimit(rule: string, key: string, hits: number): Promise<void> {
  await db()
    .insertInto('usage_limits')
    .values({ rule, key, hits, window_start: new Date() })
    .onConflict((conflict) => conflict.columns(['rule', 'key']).doUpdateSet({ hits }))
    .execute();
}

function enrol(browser: Browser, password = PASSWORD) {
  return enrolTwoFactor(browser, password);
}

describe('two-factor where the developer tools are off', () => {
  it('sends an admin without it to enrolment before any admin page or API answers', async () => {
    const email = uniqueEmail('admin-new');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Admin', role: 'admin' });
    const admin = await signIn(production, email);
    const page = await admin.request('/en/admin/courses');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/en/dashboard/settings?twoFactor=required#two-factor');
    const api = await admin.request('/api/admin/users');
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({ error: { code: 'two_factor_required' } });
    const settings = await (await admin.request('/tr/dashboard/settings?twoFactor=required')).text();
    expect(settings).toContain('her yöneticinin iki adımlı doğrulamayı açması gerekir');
  });

  it('enrols with a password and a first code, ten backup codes; then the admin area opens and the other sessions end', async () => {
    const email = uniqueEmail('admin-enrol');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Admin', role: 'admin' });
    const admin = await signIn(production, email);
    const otherDevice = await signIn(production, email);
    expect((await admin.postJson('/api/auth/two-factor/enable', { password: 'not the password' })).status).toBe(400);
    const enabled = await admin.postJson('/api/auth/two-factor/enable', { password: PASSWORD });
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    // Not on until a code confirms it.
    expect((await admin.request('/en/admin')).headers.get('location')).toContain('twoFactor=required');
    const code = authenticatorFor(totpURI);
    const wrong = await admin.postJson('/api/auth/two-factor/verify-totp', { code: code() === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    expect((await admin.postJson('/api/auth/two-factor/verify-totp', { code: 'abc' })).status).toBe(400);
    expect((await admin.postJson('/api/auth/two-factor/verify-totp', { code: code() })).status).toBe(200);
    expect((await admin.request('/en/admin')).status).toBe(200);
    expect((await admin.request('/api/admin/users')).status).toBe(200);
    expect(await signedInAs(otherDevice)).toBeNull();
    const row = await db()
      .selectFrom('two_factors')
      .innerJoin('users', 'users.id', 'two_factors.user_id')
      .select(['secret', 'backup_codes'])
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    // Stored encrypted: neither the secret nor a backup code in the clear.
    expect(row.secret).not.toContain(new URL(totpURI).searchParams.get('secret'));
    expect(row.backup_codes).not.toContain(backupCodes[0]);
  });

  it('asks a password sign-in for a code; a wrong code and a used code are refused', async () => {
    const email = uniqueEmail('admin-sign-in');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Admin', role: 'admin' });
    const { code, used } = await enrol(await signIn(production, email));
    const browser = new Browser(production);
    const first = await browser.postJson('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect(await first.json()).toMatchObject({ twoFactorRedirect: true });
    expect(await signedInAs(browser)).toBeNull();
    expect((await browser.request('/en/admin')).headers.get('location')).toContain('/en/login');
    // The code the enrolment used: refused, though the authenticator still shows it.
    const reused = await browser.postJson('/api/auth/two-factor/verify-totp', { code: used });
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ error: { code: 'code_used' } });
    const fresh = code(1);
    expect((await browser.postJson('/api/auth/two-factor/verify-totp', { code: fresh })).status).toBe(200);
    expect(await signedInAs(browser)).toBe(email);
    expect((await browser.request('/en/admin')).status).toBe(200);
    // The same code from another sign-in: refused.
    const other = new Browser(production);
    await other.postJson('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect((await other.postJson('/api/auth/two-factor/verify-totp', { code: fresh })).status).toBe(401);
    expect(await signedInAs(other)).toBeNull();
  });

  it('a sign-in link never opens the admin area without a second factor; a backup code works once', async () => {
    const email = uniqueEmail('admin-link');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Admin', role: 'admin' });
    const { backupCodes } = await enrol(await signIn(production, email));
    const byLink = async () => {
      const browser = new Browser(production);
      const link = new URL(signInLinkUrl(await mintSignInToken(db(), email), 'en', '/en/admin'));
      expect((await browser.request(link.pathname + link.search)).status).toBe(302);
      // Half signed in: nothing of the account shows until the second factor.
      expect(await signedInAs(browser)).toBeNull();
      return browser;
    };
    const browser = await byLink();
    const page = await browser.request('/en/admin/users?page=2');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`/en/two-factor?next=${encodeURIComponent('/en/admin/users?page=2')}`);
    const api = await browser.request('/api/admin/users');
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({ error: { code: 'second_factor_required' } });
    expect((await browser.request('/en/two-factor')).status).toBe(200);
    expect((await browser.postJson('/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] })).status).toBe(200);
    expect((await browser.request('/en/admin')).status).toBe(200);
    const second = await byLink();
    expect((await second.postJson('/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] })).status).toBe(401);
    expect((await second.request('/en/admin')).status).toBe(302);
    expect((await second.postJson('/api/auth/two-factor/verify-backup-code', { code: backupCodes[1] })).status).toBe(200);
    expect((await second.request('/en/admin')).status).toBe(200);
  });

  it('limits wrong codes per account and client first: one source never makes the owner’s right code wait', async () => {
    const email = uniqueEmail('admin-guess');
    const { id } = await ensureUser(db(), { email, password: PASSWORD, fullName: 'Admin', role: 'admin' });
    const { code } = await enrol(await signIn(production, email));
    const link = new URL(signInLinkUrl(await mintSignInToken(db(), email), 'en', '/en/admin'));
    const guesser = new Browser(production);
    await guesser.request(link.pathname + link.search);
    const wrong = () => (code() === '123456' ? '654321' : '123456');
    const verify = (browser: Browser, value: string) => browser.postJson('/api/auth/two-factor/verify-totp', { code: value });
    // One client: better-auth's own limit on the two-factor endpoints.
    const burst = [];
    for (let attempt = 0; attempt < 4; attempt++) burst.push((await verify(guesser, wrong())).status);
    expect(burst.slice(0, 3)).toEqual([401, 401, 401]);
    expect(burst[3]).toBe(429);
    // A source that spent its wrong codes waits, even with the right one…
    const spentSource = guesser.elsewhere();
    await spendLimit('second-factor:source', `${id}:${spentSource.address}`, 10);
    const refused = await verify(spentSource, code(1));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { message: 'twoFactor.tooManyAttempts' } });
    // …while wrong codes from other sources do not add up to a lock-out of the account (ten used to).
    const statuses = [];
    for (let attempt = 0; attempt < 8; attempt++) statuses.push((await verify(guesser.elsewhere(), wrong())).status);
    expect(statuses).toEqual(Array(8).fill(401));
    const owner = guesser.elsewhere();
    expect((await verify(owner, code(1))).status).toBe(200);
    expect((await owner.request('/en/admin')).status).toBe(200);
    // Many sources together reach the account's cap: then even the right code waits.
    const late = new Browser(production);
    const lateLink = new URL(signInLinkUrl(await mintSignInToken(db(), email), 'en', '/en/admin'));
    await late.request(lateLink.pathname + lateLink.search);
    await spendLimit('second-factor:account', id, 60);
    const capped = await verify(late.elsewhere(), code(1));
    expect(capped.status).toBe(429);
    expect(capped.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('is optional for a buyer, and turns off with the password again', async () => {
    const email = uniqueEmail('buyer');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Buyer', role: 'user' });
    const buyer = await signIn(production, email);
    expect((await buyer.request('/en/dashboard')).status).toBe(200);
    const { code } = await enrol(buyer);
    const challenged = new Browser(production);
    expect(await (await challenged.postJson('/api/auth/sign-in/email', { email, password: PASSWORD })).json()).toMatchObject({
      twoFactorRedirect: true,
    });
    expect((await challenged.postJson('/api/auth/two-factor/verify-totp', { code: code(1) })).status).toBe(200);
    expect((await buyer.postJson('/api/auth/two-factor/disable', { password: 'wrong password' })).status).toBe(400);
    expect((await buyer.postJson('/api/auth/two-factor/disable', { password: PASSWORD })).status).toBe(200);
    const subjects = (await securityMails(email)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => /Two-factor authentication turned on/.test(subject))).toHaveLength(1);
    expect(subjects.filter((subject) => /Two-factor authentication turned off/.test(subject))).toHaveLength(1);
    const plain = new Browser(production);
    const signedIn = await plain.postJson('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect(await signedIn.json()).not.toHaveProperty('twoFactorRedirect');
    expect(await signedInAs(plain)).toBe(email);
  });
});

describe('two-factor at every sign-in (decision 26)', () => {
  /** A buyer with two-factor on and one course bought; the enrolling device stays signed in. */
  async function buyerWithTwoFactor(server: TestServer, name: string) {
    const email = uniqueEmail(name);
    const { id } = await ensureUser(db(), { email, password: PASSWORD, fullName: 'Buyer', role: 'user' });
    const course = await makeCourse();
    await makePurchase(course.id, { user_id: id, email });
    const enrolled = await signIn(server, email);
    const { code } = await enrol(enrolled);
    return { email, courseId: course.id, code, enrolled };
  }

  async function byLink(server: TestServer, email: string, next: string): Promise<Browser> {
    const browser = new Browser(server);
    const link = new URL(signInLinkUrl(await mintSignInToken(db(), email), 'en', next));
    const opened = await browser.request(link.pathname + link.search);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')?.endsWith(next)).toBe(true);
    return browser;
  }

  it('a sign-in link leaves a buyer half signed in: pages go to the code, APIs refuse, nothing shows; a code finishes it', async () => {
    const { email, courseId, code, enrolled } = await buyerWithTwoFactor(production, 'buyer-link');
    // Turning two-factor on proved the enrolling session: it is not asked again.
    expect((await enrolled.request('/en/dashboard/courses')).status).toBe(200);
    const browser = await byLink(production, email, '/en/dashboard/courses');

    for (const path of ['/en/dashboard/courses', '/tr/dashboard', '/en/dashboard/settings?tab=security']) {
      const page = await browser.request(path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get('location'), path).toBe(`/${path.slice(1, 3)}/two-factor?next=${encodeURIComponent(path)}`);
    }
    const api = await browser.request('/api/account/wishlist');
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({
      error: { code: 'second_factor_required', message: 'twoFactor.secondFactorRequired' },
    });
    // better-auth's own account endpoints too: a mailbox alone cannot turn two-factor off or read the account.
    const off = await browser.postJson('/api/auth/two-factor/disable', { password: PASSWORD });
    expect(off.status).toBe(403);
    expect(await off.json()).toMatchObject({ error: { code: 'second_factor_required' } });
    expect((await browser.request('/api/auth/get-session')).status).toBe(403);
    expect((await browser.postJson('/api/auth/revoke-other-sessions', {})).status).toBe(403);
    expect(await signedInAs(enrolled)).toBe(email);
    // The header's read: not signed in, owns nothing, only told it waits on a code.
    expect(await (await browser.request('/api/session')).json()).toEqual({
      user: null,
      owned: [],
      wishlist: [],
      secondFactorPending: true,
    });
    // A following of an account link by the browser goes to the code too, then comes back.
    const receipt = await browser.request(`/api/account/purchases/${courseId}/receipt`, {
      headers: { accept: 'text/html', 'accept-language': 'tr' },
    });
    expect(receipt.status).toBe(302);
    expect(receipt.headers.get('location')).toMatch(/^\/tr\/two-factor\?next=%2Fapi%2Faccount%2Fpurchases%2F/);

    const page = await browser.request('/tr/two-factor?next=%2Ftr%2Fdashboard%2Fcourses');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Bu hesapta iki adımlı doğrulama açık, bu yüzden her giriş ikinci bir doğrulama adımı ister.');
    expect(html).toContain('Bunun yerine geçiş anahtarı kullan');

    // A wrong code stays refused, and the session stays half signed in.
    const used = new Set([code(-1), code(), code(1)]);
    const wrong = ['000000', '111111', '222222', '333333'].find((candidate) => !used.has(candidate))!;
    const refused = await browser.postJson('/api/auth/two-factor/verify-totp', { code: wrong });
    expect(refused.status).toBe(401);
    expect((await browser.request('/en/dashboard/courses')).status).toBe(302);
    expect(await signedInAs(browser)).toBeNull();

    expect((await browser.postJson('/api/auth/two-factor/verify-totp', { code: code(1) })).status).toBe(200);
    expect((await browser.request('/en/dashboard/courses')).status).toBe(200);
    expect((await browser.request('/api/account/wishlist')).status).toBe(200);
    const session = (await (await browser.request('/api/session')).json()) as {
      user: { email: string };
      owned: { courseId: string }[];
      secondFactorPending: boolean;
    };
    expect(session.user.email).toBe(email);
    expect(session.owned.map((owned) => owned.courseId)).toEqual([courseId]);
    expect(session.secondFactorPending).toBe(false);

    // Done already, the two-factor page goes on to `next`, a path of this site only.
    const onward = await browser.request('/en/two-factor?next=%2Fen%2Fdashboard%2Fcourses');
    expect(onward.status).toBe(302);
    expect(onward.headers.get('location')).toBe('/en/dashboard/courses');
    for (const offSite of ['//evil.example/steal', 'https://evil.example/', '/\\evil.example']) {
      const ignored = await browser.request(`/en/two-factor?next=${encodeURIComponent(offSite)}`);
      expect(ignored.status, offSite).toBe(302);
      expect(ignored.headers.get('location'), offSite).toBe('/en/dashboard');
    }
  });

  it('holds where the developer tools are on too: a buyer’s own two-factor is asked of every sign-in', async () => {
    const { email, code } = await buyerWithTwoFactor(demo, 'buyer-demo');
    const browser = await byLink(demo, email, '/en/dashboard');
    const page = await browser.request('/en/dashboard');
    expect(page.headers.get('location')).toBe('/en/two-factor?next=%2Fen%2Fdashboard');
    expect((await browser.request('/api/account/export')).status).toBe(403);
    expect((await browser.postJson('/api/auth/two-factor/verify-totp', { code: code(1) })).status).toBe(200);
    expect((await browser.request('/en/dashboard')).status).toBe(200);
    expect(await signedInAs(browser)).toBe(email);
  });

  it('an account without two-factor is signed in by a link at once', async () => {
    const email = uniqueEmail('plain-link');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Plain', role: 'user' });
    const browser = await byLink(production, email, '/en/dashboard');
    expect((await browser.request('/en/dashboard')).status).toBe(200);
    expect(await signedInAs(browser)).toBe(email);
  });
});

describe('re-authentication without a password', () => {
  it('asks an account that signs in by link for a sign-in of the last minutes before turning two-factor on', async () => {
    const email = uniqueEmail('link-only');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Link only', role: 'user' });
    const { id } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db().updateTable('accounts').set({ password: null }).where('user_id', '=', id).execute();
    const browser = new Browser(demo);
    const link = new URL(signInLinkUrl(await mintSignInToken(db(), email), 'en'));
    await browser.request(link.pathname + link.search);
    expect(await signedInAs(browser)).toBe(email);
    await db()
      .updateTable('sessions')
      .set({ created_at: new Date(Date.now() - 60 * 60 * 1000) })
      .where('user_id', '=', id)
      .execute();
    const stale = await browser.postJson('/api/auth/two-factor/enable', {});
    expect(stale.status).toBe(403);
    expect(await stale.json()).toMatchObject({ error: { code: 'sign_in_again', message: 'twoFactor.signInAgain' } });
    const fresh = new Browser(demo);
    const again = new URL(signInLinkUrl(await mintSignInToken(db(), email), 'en'));
    await fresh.request(again.pathname + again.search);
    expect((await fresh.postJson('/api/auth/two-factor/enable', {})).status).toBe(200);
  });
});

describe('two-factor where the developer tools are on (the demo)', () => {
  it('lets an admin in without it, and the admin area says so', async () => {
    const admin = await signedInBrowser(demo, { role: 'admin' });
    const page = await admin.request('/en/admin');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('admins may enter without two-factor here');
    expect((await admin.request('/api/admin/users')).status).toBe(200);
  });
});
