import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { Browser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { SoftwareAuthenticator, type PasskeyAlgorithm } from '../../support/passkey-authenticator.ts';
import { PASSKEY_ALGORITHMS } from '../../../src/lib/auth.schema.ts';
import { enrolTwoFactor } from '../../support/two-factor.ts';
import { uniqueEmail, USER_AGENTS } from '../../support/factories.ts';

/**
 * Passkeys over HTTP with a software authenticator (real P-256 keys, real signatures): adding,
 * naming and removing them, signing in with one, and one standing in for the admin's second factor
 * on a server without developer tools (production rules).
 */
const PASSWORD = 'correct horse 42';

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

type Options = {
  challengeId: string;
  options: { challenge: string; rp: { id: string }; user: { id: string }; rpId: string; pubKeyCredParams: { alg: number }[] };
};

async function account(
  server: TestServer,
  { role = 'user', language = 'en' }: { role?: 'user' | 'admin'; language?: 'en' | 'tr' } = {},
) {
  const email = uniqueEmail(role);
  await ensureUser(db(), { email, password: PASSWORD, fullName: 'Pat Key', role, language });
  const browser = new Browser(server);
  const response = await browser.postJson(
    '/api/auth/sign-in/email',
    { email, password: PASSWORD },
    { 'user-agent': USER_AGENTS.chrome },
  );
  expect(response.status).toBe(200);
  return { email, browser, authenticator: new SoftwareAuthenticator(server.url) };
}

async function addPasskey(
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  name = 'Laptop key',
  algorithm: PasskeyAlgorithm = 'ES256',
) {
  const options = await browser.postJson('/api/account/passkeys/options', { password: PASSWORD });
  expect(options.status).toBe(200);
  const { challengeId, options: creation } = (await options.json()) as Options;
  const response = await browser.postJson('/api/account/passkeys', {
    challengeId,
    name,
    response: authenticator.create(creation, { algorithm }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { passkey: { id: string; name: string } }).passkey;
}

async function passkeySignIn(
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  userAgent = USER_AGENTS.chrome,
  credential = authenticator.credentials[0],
) {
  const options = await browser.postJson('/api/auth/passkey/sign-in-options', {});
  expect(options.status).toBe(200);
  const { challengeId, options: request } = (await options.json()) as Options;
  return browser.postJson(
    '/api/auth/passkey/sign-in',
    { challengeId, response: authenticator.get(request, { credential }) },
    { 'user-agent': userAgent },
  );
}

async function signedInAs(browser: Browser): Promise<string | null> {
  const body = (await (await browser.request('/api/session')).json()) as { user: { email: string } | null };
  return body.user?.email ?? null;
}

async function securityMails(to: string) {
  return db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text', 'language'])
    .where('recipient', '=', to)
    .where('kind', '=', 'security-notice')
    .orderBy('created_at')
    .execute();
}

describe('adding, naming and removing passkeys', () => {
  it('adds a passkey after the password, tells the owner by mail in their language, and lists it in Settings', async () => {
    const { email, browser, authenticator } = await account(demo, { language: 'tr' });
    const wrong = await browser.postJson('/api/account/passkeys/options', { password: 'not the password' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ error: { fields: { password: 'settings.wrongCurrentPassword' } } });
    const passkey = await addPasskey(browser, authenticator, '  İş bilgisayarı  ');
    expect(passkey.name).toBe('İş bilgisayarı');
    const stored = await db().selectFrom('passkeys').selectAll().where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(stored.credential_id).toBe(authenticator.credentials[0]!.id.toString('base64url'));
    const mail = (await securityMails(email)).find((notice) => /geçiş anahtarı eklendi$/.test(notice.subject));
    expect(mail?.language).toBe('tr');
    expect(mail?.text).toContain('“İş bilgisayarı”');
    const page = await (await browser.request('/tr/dashboard/settings')).text();
    expect(page).toContain('İş bilgisayarı');
    expect(page).not.toContain(stored.credential_id);
  });

  it('uses a registration challenge once, only in the session that asked for it, and refuses the same authenticator twice', async () => {
    const { browser, authenticator } = await account(demo);
    const other = await account(demo);
    const { challengeId, options } = (await (
      await browser.postJson('/api/account/passkeys/options', { password: PASSWORD })
    ).json()) as Options;
    const answer = authenticator.create(options);
    // Another account cannot spend this session's challenge (and spending it ends it).
    const stolen = await other.browser.postJson('/api/account/passkeys', { challengeId, name: 'Stolen', response: answer });
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: { message: 'passkeys.expired' } });
    expect((await browser.postJson('/api/account/passkeys', { challengeId, name: 'Mine', response: answer })).status).toBe(400);
    // A fresh challenge, then the same answer again with a new one: one passkey per credential.
    const fresh = (await (await browser.postJson('/api/account/passkeys/options', { password: PASSWORD })).json()) as Options;
    const first = authenticator.create(fresh.options);
    expect(
      (await browser.postJson('/api/account/passkeys', { challengeId: fresh.challengeId, name: 'Mine', response: first })).status,
    ).toBe(201);
    const again = (await (await browser.postJson('/api/account/passkeys/options', { password: PASSWORD })).json()) as Options;
    const replayed = await browser.postJson('/api/account/passkeys', {
      challengeId: again.challengeId,
      name: 'Twice',
      response: first,
    });
    expect(replayed.status).toBe(400);
    // An authenticator that did not verify its user is refused: a passkey stands for a second factor.
    const unverified = (await (
      await browser.postJson('/api/account/passkeys/options', { password: PASSWORD })
    ).json()) as Options;
    const lazy = authenticator.create(unverified.options, { verifyUser: false });
    expect(
      (await browser.postJson('/api/account/passkeys', { challengeId: unverified.challengeId, name: 'Lazy', response: lazy }))
        .status,
    ).toBe(400);
    expect(await db().selectFrom('passkeys').select('name').where('name', 'in', ['Stolen', 'Twice', 'Lazy']).execute()).toEqual(
      [],
    );
  });

  it('renames and removes only the account’s own passkeys; removing asks for the password again', async () => {
    const { browser, authenticator } = await account(demo);
    const stranger = await account(demo);
    const passkey = await addPasskey(browser, authenticator);
    expect((await stranger.browser.json('PATCH', `/api/account/passkeys/${passkey.id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await browser.json('PATCH', `/api/account/passkeys/${passkey.id}`, { name: '' })).status).toBe(400);
    expect((await browser.json('PATCH', `/api/account/passkeys/${passkey.id}`, { name: 'Phone' })).status).toBe(200);
    expect((await db().selectFrom('passkeys').select('name').where('id', '=', passkey.id).executeTakeFirstOrThrow()).name).toBe(
      'Phone',
    );
    expect((await stranger.browser.json('DELETE', `/api/account/passkeys/${passkey.id}`, { password: PASSWORD })).status).toBe(
      404,
    );
    expect((await browser.json('DELETE', `/api/account/passkeys/${passkey.id}`, { password: 'wrong password' })).status).toBe(
      403,
    );
    expect((await browser.json('DELETE', `/api/account/passkeys/${passkey.id}`, { password: PASSWORD })).status).toBe(200);
    expect((await browser.json('DELETE', `/api/account/passkeys/${passkey.id}`, { password: PASSWORD })).status).toBe(404);
    // Removed: it signs in no more.
    expect((await passkeySignIn(new Browser(demo), authenticator)).status).toBe(401);
  });
});

describe('renaming and removing a passkey without JavaScript', () => {
  /** Settings' own form posted by the browser, as it is before (or without) the island. */
  const settingsForm = (browser: Browser, lang: 'en' | 'tr', fields: Record<string, string>) =>
    browser.request(`/${lang}/dashboard/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });

  it('opens a form by its link, renames, refuses a wrong password at its field, and removes, each in the page language', async () => {
    const { browser, authenticator } = await account(demo, { language: 'tr' });
    const stranger = await account(demo);
    const passkey = await addPasskey(browser, authenticator, 'Dizüstü');

    // The link that opens the form works without the island; a stranger's id opens nothing.
    const formOf = (action: 'rename' | 'remove') => `id="passkey-${action}-${passkey.id}-`;
    const opened = await (await browser.request(`/tr/dashboard/settings?passkey=${passkey.id}&edit=rename#passkeys`)).text();
    expect(opened).toContain(formOf('rename'));
    const elsewhere = await stranger.browser.request(`/en/dashboard/settings?passkey=${passkey.id}&edit=rename`);
    expect(await elsewhere.text()).not.toContain(formOf('rename'));

    const blank = await settingsForm(browser, 'tr', { form: 'passkey-rename', passkey: passkey.id, name: ' ' });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain(formOf('rename'));
    expect(
      (await settingsForm(stranger.browser, 'en', { form: 'passkey-rename', passkey: passkey.id, name: 'Mine' })).status,
    ).toBe(404);
    const renamed = await settingsForm(browser, 'tr', { form: 'passkey-rename', passkey: passkey.id, name: 'Telefon' });
    expect(renamed.status).toBe(303);
    expect(renamed.headers.get('location')).toBe('/tr/dashboard/settings?saved=passkey-renamed');
    const saved = await (await browser.request('/tr/dashboard/settings?saved=passkey-renamed')).text();
    expect(saved).toMatch(/role="status"[^>]*>Geçiş anahtarının adı değişti\.</);

    const wrong = await settingsForm(browser, 'tr', { form: 'passkey-remove', passkey: passkey.id, password: 'wrong password' });
    expect(wrong.status).toBe(403);
    const page = await wrong.text();
    expect(page).toContain(formOf('remove'));
    expect(page).toMatch(/aria-invalid="true"/);
    expect(page).not.toContain('wrong password');
    const removed = await settingsForm(browser, 'tr', { form: 'passkey-remove', passkey: passkey.id, password: PASSWORD });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('/tr/dashboard/settings?saved=passkey-removed');
    expect(await db().selectFrom('passkeys').select('id').where('id', '=', passkey.id).execute()).toEqual([]);
  });
});

describe('an account that has not proved its address', () => {
  it('may not add a passkey or two-factor: they would outlive the owner taking the address back', async () => {
    const email = uniqueEmail('unproven');
    const browser = new Browser(demo);
    const signUp = await browser.postJson('/api/auth/sign-up/email', {
      name: 'Pat Key',
      email,
      password: PASSWORD,
      language: 'tr',
    });
    expect(signUp.status).toBe(200);
    const refused = await browser.postJson('/api/account/passkeys/options', { password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { message: 'passkeys.verifyFirst' } });
    const { id } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(await db().selectFrom('webauthn_challenges').select('id').where('user_id', '=', id).execute()).toEqual([]);
    // Nor two-factor: a stranger's authenticator would stop the owner at the code page.
    const twoFactor = await browser.postJson('/api/auth/two-factor/enable', { password: PASSWORD });
    expect(twoFactor.status).toBe(403);
    expect(await twoFactor.json()).toMatchObject({ error: { code: 'unverified_email', message: 'twoFactor.verifyFirst' } });
    expect(await db().selectFrom('two_factors').select('id').where('user_id', '=', id).execute()).toEqual([]);
  });
});

describe('an account without a password', () => {
  it('adds and removes passkeys within minutes of a sign-in; a passkey sign-in is such a sign-in', async () => {
    const { email, browser, authenticator } = await account(demo);
    const { id } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const passkey = await addPasskey(browser, authenticator);
    await db().updateTable('accounts').set({ password: null }).where('user_id', '=', id).execute();
    const age = () =>
      db()
        .updateTable('sessions')
        .set({ created_at: new Date(Date.now() - 60 * 60 * 1000) })
        .where('user_id', '=', id)
        .execute();
    await age();
    const stale = await browser.postJson('/api/account/passkeys/options', {});
    expect(stale.status).toBe(403);
    expect(await stale.json()).toMatchObject({ error: { code: 'sign_in_again', message: 'twoFactor.signInAgain' } });
    expect((await browser.json('DELETE', `/api/account/passkeys/${passkey.id}`, {})).status).toBe(403);
    // A passkey sign-in is a fresh sign-in: the new session may add and remove.
    const fresh = new Browser(demo);
    expect((await passkeySignIn(fresh, authenticator)).status).toBe(200);
    expect((await fresh.postJson('/api/account/passkeys/options', {})).status).toBe(200);
    expect((await fresh.json('DELETE', `/api/account/passkeys/${passkey.id}`, {})).status).toBe(200);
  });
});

describe('signing in with a passkey', () => {
  it('opens a better-auth session marked as a passed second factor; a new device gets the security mail', async () => {
    const { email, browser, authenticator } = await account(demo);
    await addPasskey(browser, authenticator);
    const phone = new Browser(demo);
    const response = await passkeySignIn(phone, authenticator, USER_AGENTS.firefox);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, signedIn: true });
    expect(response.headers.getSetCookie().some((cookie) => /better-auth\.session_token=.+HttpOnly/i.test(cookie))).toBe(true);
    expect(await signedInAs(phone)).toBe(email);
    const session = await db()
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.second_factor_at', 'sessions.user_agent'])
      .where('users.email', '=', email)
      .where('sessions.user_agent', '=', USER_AGENTS.firefox)
      .executeTakeFirstOrThrow();
    expect(session.second_factor_at).not.toBeNull();
    const used = await db()
      .selectFrom('passkeys')
      .select(['last_used_at', 'counter'])
      .where('credential_id', '=', authenticator.credentials[0]!.id.toString('base64url'))
      .executeTakeFirstOrThrow();
    expect(used.last_used_at).not.toBeNull();
    expect(Number(used.counter)).toBe(1);
    const notice = (await securityMails(email)).find((mail) => /New sign-in/.test(mail.subject));
    expect(notice?.text).toContain('Firefox 133 on Linux');
  });

  it('signs in with a passkey of every algorithm the shop offers, ML-DSA-44 (3,227-character signatures) first', async () => {
    const { browser, authenticator } = await account(demo);
    const { options } = (await (
      await browser.postJson('/api/account/passkeys/options', { password: PASSWORD })
    ).json()) as Options;
    expect(options.pubKeyCredParams.map((param) => param.alg)).toEqual(PASSKEY_ALGORITHMS.map((algorithm) => algorithm.id));
    for (const { name } of PASSKEY_ALGORITHMS) {
      await addPasskey(browser, authenticator, name, name);
      const credential = authenticator.credentials.at(-1)!;
      const phone = new Browser(demo);
      const response = await passkeySignIn(phone, authenticator, USER_AGENTS.chrome, credential);
      expect(response.status, name).toBe(200);
    }
  });

  it('refuses a replayed answer, a counter that goes back, another origin and an unknown passkey', async () => {
    const { browser, authenticator } = await account(demo);
    await addPasskey(browser, authenticator);
    const client = new Browser(demo);
    const { challengeId, options } = (await (await client.postJson('/api/auth/passkey/sign-in-options', {})).json()) as Options;
    const answer = authenticator.get(options);
    expect((await client.postJson('/api/auth/passkey/sign-in', { challengeId, response: answer })).status).toBe(200);
    const again = new Browser(demo);
    const replay = await again.postJson('/api/auth/passkey/sign-in', { challengeId, response: answer });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ code: 'PASSKEY_REFUSED' });
    // A fresh challenge, but the authenticator's counter did not move on (a cloned key).
    const fresh = (await (await again.postJson('/api/auth/passkey/sign-in-options', {})).json()) as Options;
    const cloned = authenticator.get(fresh.options, { counterStep: 0 });
    expect((await again.postJson('/api/auth/passkey/sign-in', { challengeId: fresh.challengeId, response: cloned })).status).toBe(
      401,
    );
    const phishing = (await (await again.postJson('/api/auth/passkey/sign-in-options', {})).json()) as Options;
    const elsewhere = authenticator.get(phishing.options, { origin: 'https://shop.example.net' });
    expect(
      (await again.postJson('/api/auth/passkey/sign-in', { challengeId: phishing.challengeId, response: elsewhere })).status,
    ).toBe(401);
    const unknown = new SoftwareAuthenticator(demo.url);
    unknown.create({ challenge: 'x', rp: { id: '127.0.0.1' }, user: { id: 'someone' } });
    expect((await passkeySignIn(again, unknown)).status).toBe(401);
    expect(await signedInAs(again)).toBeNull();
    // A challenge left too long is refused.
    const late = (await (await again.postJson('/api/auth/passkey/sign-in-options', {})).json()) as Options;
    await db()
      .updateTable('webauthn_challenges')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', late.challengeId)
      .execute();
    expect(
      (
        await again.postJson('/api/auth/passkey/sign-in', {
          challengeId: late.challengeId,
          response: authenticator.get(late.options),
        })
      ).status,
    ).toBe(401);
    expect((await again.postJson('/api/auth/passkey/sign-in', { challengeId: 'nope', response: answer })).status).toBe(400);
  });

  it('a signed-in session cannot use another account’s passkey', async () => {
    const owner = await account(demo);
    await addPasskey(owner.browser, owner.authenticator);
    const other = await account(demo);
    const response = await passkeySignIn(other.browser, owner.authenticator);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'PASSKEY_OTHER_ACCOUNT' });
    expect(await signedInAs(other.browser)).toBe(other.email);
  });
});

describe('limits (production: limits on)', () => {
  it('a client gets at most 60 passkey sign-in attempts a quarter hour, however often autofill asks; an account 20 additions or removals an hour', async () => {
    const client = new Browser(production);
    // The login page asks for a challenge on every view (passkey autofill): views spend no attempt.
    for (let view = 0; view < 61; view++)
      expect((await client.postJson('/api/auth/passkey/sign-in-options', {})).status, `view ${view}`).toBe(200);
    const stranger = new SoftwareAuthenticator(production.url);
    stranger.create({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'nobody' } });
    const attempt = () =>
      client.postJson('/api/auth/passkey/sign-in', {
        challengeId: crypto.randomUUID(),
        response: stranger.get({ challenge: 'x', rpId: 'localhost' }),
      });
    for (let tried = 0; tried < 60; tried++) expect((await attempt()).status, `attempt ${tried}`).toBe(401);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { browser } = await account(production);
    for (let attempt = 0; attempt < 20; attempt++)
      expect((await browser.postJson('/api/account/passkeys/options', { password: 'wrong password' })).status).toBe(403);
    expect((await browser.postJson('/api/account/passkeys/options', { password: PASSWORD })).status).toBe(429);
  });
});

describe('a passkey as the admin’s second factor (developer tools off)', () => {
  it('finishes a password sign-in waiting on its second factor and opens the admin area', async () => {
    const { email, browser, authenticator } = await account(production, { role: 'admin' });
    await enrolTwoFactor(browser, PASSWORD);
    await addPasskey(browser, authenticator);
    const laptop = new Browser(production);
    const password = await laptop.postJson('/api/auth/sign-in/email', { email, password: PASSWORD });
    expect(await password.json()).toMatchObject({ twoFactorRedirect: true });
    expect(await signedInAs(laptop)).toBeNull();
    const response = await passkeySignIn(laptop, authenticator);
    expect(response.status).toBe(200);
    expect(await signedInAs(laptop)).toBe(email);
    expect((await laptop.request('/api/admin/users')).status).toBe(200);
    expect((await laptop.request('/en/admin')).status).toBe(200);
  });

  it('proves a session that signed in otherwise, and a passkey alone signs an admin straight in', async () => {
    const { email, browser, authenticator } = await account(production, { role: 'admin' });
    await enrolTwoFactor(browser, PASSWORD);
    await addPasskey(browser, authenticator);
    // A session that has not proved a second factor (as after a sign-in link).
    await db()
      .updateTable('sessions')
      .set({ second_factor_at: null })
      .where(
        'user_id',
        '=',
        (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
      )
      .execute();
    expect((await browser.request('/api/admin/users')).status).toBe(403);
    const stepUp = await passkeySignIn(browser, authenticator);
    expect(await stepUp.json()).toEqual({ ok: true, signedIn: false });
    expect((await browser.request('/api/admin/users')).status).toBe(200);
    const fresh = new Browser(production);
    expect((await passkeySignIn(fresh, authenticator)).status).toBe(200);
    expect((await fresh.request('/api/admin/users')).status).toBe(200);
  });
});
