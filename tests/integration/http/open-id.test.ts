import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { makeCourse, makePurchase, uniqueEmail, USER_AGENTS } from '../../support/factories.ts';
import { authorizeAtProvider, startOidcProvider, type TestOidcProvider } from '../../support/oidc-provider.ts';
import { Browser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { enrolTwoFactor } from '../../support/two-factor.ts';

/**
 * Sign-in with an OpenID provider over HTTP, against a real provider (`oidc-provider`) on a local
 * port whose people's claims the test sets: who is linked to what, who is refused, what an
 * OpenID sign-in opens and what it does not (the admin area without a second factor).
 */
const PASSWORD = 'correct horse 42';

let provider: TestOidcProvider;
let plain: TestServer;
let shop: TestServer;
let production: TestServer;

beforeAll(async () => {
  provider = await startOidcProvider();
  [plain, shop, production] = await Promise.all([
    startTestServer(),
    startTestServer(provider.env('Test ID')),
    startTestServer({ NODE_ENV: 'production', PRODUCTION_CHECKS: 'test-harness', DEV_TOOLS: 'off', ...provider.env('Test ID') }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([plain.stop(), shop.stop(), production.stop()]);
  await provider.stop();
});

let counter = 0;

/** A person known to the provider, with the claims this test gives them. */
function personAtProvider(email: string, verified: boolean): string {
  const login = `person-${counter++}`;
  provider.people.set(login, { email, email_verified: verified, name: `Person ${login}` });
  return login;
}

/** The whole round trip: the button, the provider's pages, the shop's callback. Answers where the shop sends the browser. */
async function signInWithProvider(browser: Browser, login: string, lang = 'en', headers: Record<string, string> = {}) {
  const started = await browser.postJson(
    '/api/auth/sign-in/social',
    {
      provider: 'oidc',
      callbackURL: `/${lang}/dashboard`,
      newUserCallbackURL: `/${lang}/dashboard`,
      errorCallbackURL: `/${lang}/login?signin=oidc`,
      disableRedirect: true,
      additionalData: { language: lang },
    },
    headers,
  );
  expect(started.status).toBe(200);
  const { url } = (await started.json()) as { url: string };
  expect(url.startsWith(`${provider.issuer}/`)).toBe(true);
  const back = new URL(await authorizeAtProvider(url, login));
  const landed = await browser.request(`${back.pathname}${back.search}`, { headers });
  expect(landed.status).toBe(302);
  return landed.headers.get('location') ?? '';
}

async function signedInAs(browser: Browser): Promise<string | null> {
  const body = (await (await browser.request('/api/session')).json()) as { user: { email: string } | null };
  return body.user?.email ?? null;
}

async function accountsOf(email: string) {
  return db()
    .selectFrom('accounts')
    .innerJoin('users', 'users.id', 'accounts.user_id')
    .select(['accounts.id', 'accounts.provider_id', 'users.id as user_id'])
    .where('users.email', '=', email)
    .execute();
}

describe('the button', () => {
  it('is offered only where a provider is configured, by the name it is configured with', async () => {
    const without = await (await plain.fetch('/en/login')).text();
    expect(without).not.toContain('Continue with');
    const refused = await new Browser(plain).postJson('/api/auth/sign-in/social', {
      provider: 'oidc',
      callbackURL: '/en/dashboard',
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);

    expect(await (await shop.fetch('/en/login')).text()).toContain('Continue with Test ID');
    expect(await (await shop.fetch('/tr/login')).text()).toContain('Test ID ile devam et');
    // The browser never gets an ID token in: only the provider's own redirect signs in.
    const smuggled = await new Browser(shop).postJson('/api/auth/sign-in/social', {
      provider: 'oidc',
      idToken: { token: 'eyJhbGciOiJub25lIn0.e30.' },
    });
    expect(smuggled.status).toBe(400);
    // A forged or replayed return from the provider signs nobody in and breaks nothing.
    for (const query of ['', '?code=x&state=forged', '?error=access_denied&state=forged', `?code=${'x'.repeat(5000)}`]) {
      const browser = new Browser(shop);
      const back = await browser.request(`/api/auth/callback/oidc${query}`);
      expect(back.status, query).toBeLessThan(500);
      expect(await signedInAs(browser)).toBeNull();
    }
  });
});

describe('linking rules', () => {
  it('makes a new account from a verified address, verified, in the page’s language, with the guest purchases made with it', async () => {
    const email = uniqueEmail('new-verified');
    const course = await makeCourse();
    await makePurchase(course.id, { email, guest: true, user_id: null, status: 'completed', completed_at: new Date() });
    const browser = new Browser(shop);
    expect(await signInWithProvider(browser, personAtProvider(email, true), 'tr')).toBe('/tr/dashboard');
    expect(await signedInAs(browser)).toBe(email);
    const user = await db()
      .selectFrom('users')
      .select(['id', 'email_verified', 'language'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email_verified: true, language: 'tr' });
    expect((await accountsOf(email)).map((row) => row.provider_id)).toEqual(['oidc']);
    const library = await (await browser.request('/tr/dashboard/courses')).text();
    expect(library).toContain(course.title);
  });

  it('makes an unverified account from an address the provider did not verify: its guest purchases wait for confirmation', async () => {
    const email = uniqueEmail('new-unverified');
    const course = await makeCourse();
    await makePurchase(course.id, { email, guest: true, user_id: null, status: 'completed', completed_at: new Date() });
    const browser = new Browser(shop);
    expect(await signInWithProvider(browser, personAtProvider(email, false))).toBe('/en/dashboard');
    const user = await db().selectFrom('users').select('email_verified').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.email_verified).toBe(false);
    expect(await (await browser.request('/en/dashboard/courses')).text()).not.toContain(course.title);
    const mails = await db().selectFrom('mail_outbox').select('subject').where('recipient', '=', email).execute();
    expect(mails.map((mail) => mail.subject).join(' ')).toMatch(/verify|confirm/i);
  });

  it('links to the account at the same verified address, never a second account', async () => {
    const email = uniqueEmail('existing');
    const { id } = await ensureUser(db(), { email, password: PASSWORD, fullName: 'Existing', role: 'user' });
    const browser = new Browser(shop);
    expect(await signInWithProvider(browser, personAtProvider(email, true))).toBe('/en/dashboard');
    expect(await signedInAs(browser)).toBe(email);
    const rows = await accountsOf(email);
    expect(rows.map((row) => row.provider_id).sort()).toEqual(['credential', 'oidc']);
    expect(new Set(rows.map((row) => row.user_id))).toEqual(new Set([id]));
    const settings = await (await browser.request('/en/dashboard/settings')).text();
    expect(settings).toContain('Sign-in providers');
    expect(settings).toContain('Test ID');
  });

  it('refuses an address the provider has not verified when an account has it, and makes no account', async () => {
    const email = uniqueEmail('unverified-claim');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Owner', role: 'user' });
    const browser = new Browser(shop);
    const landed = await signInWithProvider(browser, personAtProvider(email, false));
    expect(landed).toBe('/en/login?signin=oidc&error=account_not_linked');
    expect(await signedInAs(browser)).toBeNull();
    expect((await accountsOf(email)).map((row) => row.provider_id)).toEqual(['credential']);
    expect(await db().selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
    const page = await (await browser.request('/en/login?signin=oidc&error=account_not_linked')).text();
    expect(page).toContain('Continue with Test ID');
  });

  it('a verified address claims an account nobody proved: its password and sessions go, its guest purchases open', async () => {
    const email = uniqueEmail('unproven');
    const { id } = await ensureUser(db(), { email, password: PASSWORD, fullName: 'Squatter', role: 'user' });
    await db().updateTable('users').set({ email_verified: false }).where('id', '=', id).execute();
    const course = await makeCourse();
    await makePurchase(course.id, { email, guest: true, user_id: id, status: 'completed', completed_at: new Date() });
    const squatter = new Browser(shop);
    expect((await squatter.postJson('/api/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(200);

    const owner = new Browser(shop);
    expect(await signInWithProvider(owner, personAtProvider(email, true))).toBe('/en/dashboard');
    expect(await signedInAs(owner)).toBe(email);
    expect(await signedInAs(squatter)).toBeNull();
    expect((await accountsOf(email)).map((row) => row.provider_id)).toEqual(['oidc']);
    const again = await new Browser(shop).postJson('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect(again.status).toBe(401);
    expect(await (await owner.request('/en/dashboard/courses')).text()).toContain(course.title);
  });

  it('a new-device sign-in through the provider mails the owner', async () => {
    const email = uniqueEmail('new-device');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Devices', role: 'user' });
    expect((await new Browser(shop).postJson('/api/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(200);
    await signInWithProvider(new Browser(shop), personAtProvider(email, true), 'en', { 'user-agent': USER_AGENTS.firefox });
    const mails = await db().selectFrom('mail_outbox').select(['subject', 'text']).where('recipient', '=', email).execute();
    const notice = mails.find((mail) => mail.subject.startsWith('New sign-in'));
    expect(notice?.text).toContain('Firefox 133 on Linux');
  });
});

describe('unlinking', () => {
  it('is refused while the identity is the only way to sign in, allowed once a password is set, and never reaches a password', async () => {
    const email = uniqueEmail('unlink');
    const browser = new Browser(shop);
    await signInWithProvider(browser, personAtProvider(email, true));
    const [identity] = await accountsOf(email);
    const only = await browser.postJson('/api/auth/unlink-account', { accountId: identity!.id });
    expect(only.status).toBe(409);
    expect(await only.json()).toMatchObject({ error: { code: 'last_way_to_sign_in' } });

    expect((await browser.postJson('/api/account/password', { newPassword: PASSWORD })).status).toBe(200);
    const password = (await accountsOf(email)).find((row) => row.provider_id === 'credential')!;
    expect((await browser.postJson('/api/auth/unlink-account', { accountId: password.id })).status).toBe(404);
    // Someone else's identity is not this account's to unlink.
    const stranger = new Browser(shop);
    await signInWithProvider(stranger, personAtProvider(uniqueEmail('stranger'), true));
    expect((await stranger.postJson('/api/auth/unlink-account', { accountId: identity!.id })).status).toBe(404);
    expect((await new Browser(shop).postJson('/api/auth/unlink-account', { accountId: identity!.id })).status).toBe(401);

    expect((await browser.postJson('/api/auth/unlink-account', { accountId: identity!.id })).status).toBe(200);
    expect((await accountsOf(email)).map((row) => row.provider_id)).toEqual(['credential']);
  });
});

describe('the admin area where the developer tools are off', () => {
  it('an OpenID sign-in of an account with two-factor opens nothing until the session proves a second factor', async () => {
    const email = uniqueEmail('admin');
    await ensureUser(db(), { email, password: PASSWORD, fullName: 'Admin', role: 'admin' });
    const enrolled = new Browser(production);
    expect((await enrolled.postJson('/api/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(200);
    const { code, used } = await enrolTwoFactor(enrolled, PASSWORD);

    const browser = new Browser(production);
    expect(await signInWithProvider(browser, personAtProvider(email, true))).toBe('/en/dashboard');
    // Two-factor is on: the provider's sign-in is half of one (decision 26), the dashboard asks the code too.
    expect(await signedInAs(browser)).toBeNull();
    expect((await browser.request('/en/dashboard')).headers.get('location')).toBe('/en/two-factor?next=%2Fen%2Fdashboard');
    const api = await browser.request('/api/admin/users');
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({ error: { code: 'second_factor_required' } });
    expect((await browser.request('/en/admin')).headers.get('location')).toMatch(/\/en\/two-factor/);

    const next = code() === used ? code(1) : code();
    expect((await browser.postJson('/api/auth/two-factor/verify-totp', { code: next })).status).toBe(200);
    expect(await signedInAs(browser)).toBe(email);
    expect((await browser.request('/en/dashboard')).status).toBe(200);
    expect((await browser.request('/api/admin/users')).status).toBe(200);
  });
});
