import { createPrivateKey } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { DEMO, expect, openMail, test, waitForIslands, type Page } from './fixtures.ts';

/**
 * Passkeys in Chromium with a virtual authenticator (DevTools protocol: CTAP2, discoverable
 * credentials, user verification), as a person with a fingerprint reader would use them.
 */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return {
    credentials,
    /** Off: the authenticator waits for a touch that never comes (a request stays pending). */
    presence: (enabled: boolean) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }),
    /** Keeps a passkey of another authenticator (the same person's, in another tab). */
    add: (credential: Awaited<ReturnType<typeof credentials>>[number]) =>
      cdp.send('WebAuthn.addCredential', { authenticatorId, credential }),
  };
}

/**
 * A browser without passkey autofill (conditional mediation), where the button is the way in. With
 * autofill, Chromium's virtual authenticator answers the sign-in page's waiting autofill request at
 * once with its passkey, before any button could be pressed.
 */
async function withoutPasskeyAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: () => Promise.resolve(false) });
  });
}

/**
 * An authenticator that makes keys of one algorithm only (a COSE id the shop offers): the page's
 * registration request is narrowed to it, as a security key that knows no other would answer.
 * Chromium's virtual authenticator makes Ed25519, ES256 and RS256 keys (not ML-DSA-44: the HTTP
 * tests sign in with that one through a software authenticator).
 */
async function onlyAlgorithm(page: Page, alg: number) {
  await page.addInitScript((only) => {
    const create = navigator.credentials.create.bind(navigator.credentials);
    navigator.credentials.create = (options?: CredentialCreationOptions) => {
      const publicKey = options?.publicKey;
      if (!publicKey) return create(options);
      return create({
        ...options,
        publicKey: { ...publicKey, pubKeyCredParams: publicKey.pubKeyCredParams.filter((param) => param.alg === only) },
      });
    };
  }, alg);
}

/** The kind of key a virtual authenticator's passkey holds ('ed25519', 'ec', 'rsa'). */
const keyType = (credential: { privateKey: string }) =>
  createPrivateKey({ key: Buffer.from(credential.privateKey, 'base64'), format: 'der', type: 'pkcs8' }).asymmetricKeyType;

async function signOut(page: Page, lang: 'en' | 'tr') {
  await page.context().clearCookies();
  await page.goto(`/${lang}/login`);
  await waitForIslands(page);
}

const TEXTS = {
  en: {
    card: 'Passkeys',
    email: 'Email',
    name: 'Passkey name',
    password: 'Your password',
    add: 'Add a passkey',
    added: 'Passkey added.',
    list: 'Your passkeys',
    neverUsed: 'Not used yet',
    signIn: 'Sign in with a passkey',
    remove: 'Remove',
    removed: 'Passkey removed.',
    none: 'You have no passkeys yet.',
    mail: 'A passkey was added to your MicroCourses account',
    notYou: 'If you did not add it',
    wrongPassword: 'Your current password is not correct',
    rename: 'Rename',
    newName: 'New name for',
    save: 'Save',
  },
  tr: {
    card: 'Geçiş anahtarları',
    email: 'E-posta',
    name: 'Geçiş anahtarının adı',
    password: 'Şifreniz',
    add: 'Geçiş anahtarı ekle',
    added: 'Geçiş anahtarı eklendi.',
    list: 'Geçiş anahtarlarınız',
    neverUsed: 'Henüz kullanılmadı',
    signIn: 'Geçiş anahtarıyla oturum aç',
    remove: 'Kaldır',
    removed: 'Geçiş anahtarı kaldırıldı.',
    none: 'Henüz geçiş anahtarınız yok.',
    mail: 'MicroCourses hesabınıza bir geçiş anahtarı eklendi',
    notYou: 'Bunu siz eklemediyseniz',
    wrongPassword: 'Mevcut şifreniz doğru değil',
    rename: 'Yeniden adlandır',
    newName: 'için yeni ad',
    save: 'Kaydet',
  },
} as const;

/** Opens the sign-up's confirmation mail: only an account that proved its address may add a passkey. */
async function confirmAddress(page: Page, email: string, lang: 'en' | 'tr'): Promise<void> {
  const mail = await openMail(
    page,
    email,
    lang === 'en' ? /^Confirm your e-mail address/ : /e-posta adresinizi doğrulayın$/,
    lang,
  );
  await mail
    .getByRole('link', { name: /\/api\/auth\/verify-email/ })
    .first()
    .click();
  await page.waitForURL((url) => !url.pathname.includes('/dev/mailbox'));
}

// Each language with another of the algorithms the shop offers (the admin's test below: Chromium's first choice, Ed25519).
for (const [lang, algorithm] of [
  ['en', { name: 'ES256', id: -7, key: 'ec' }],
  ['tr', { name: 'RS256', id: -257, key: 'rsa' }],
] as const) {
  const text = TEXTS[lang];
  test(`passkeys: an ${algorithm.name} passkey added and renamed in Settings, signed in with, then removed (${lang})`, async ({
    page,
    newBuyer,
  }) => {
    const account = await newBuyer(`passkey-${lang}`, lang);
    await confirmAddress(page, account.email, lang);
    await withoutPasskeyAutofill(page);
    await onlyAlgorithm(page, algorithm.id);
    const authenticator = await virtualAuthenticator(page);
    await page.goto(`/${lang}/dashboard/settings`);
    await waitForIslands(page);
    const card = page.getByRole('region', { name: text.card, exact: true });
    await expect(card.getByText(text.none)).toBeVisible();
    await card.getByRole('button', { name: text.add }).click();
    await expect(card.getByLabel(text.name)).toHaveAttribute('aria-invalid', 'true');
    await card.getByLabel(text.name).fill('Laptop');
    await card.getByLabel(text.password).fill('not my password');
    await card.getByRole('button', { name: text.add }).click();
    await expect(card.getByRole('alert')).toHaveText(text.wrongPassword);
    await expect(card.getByLabel(text.name)).toHaveValue('Laptop');
    await card.getByLabel(text.password).fill(account.password);
    await card.getByRole('button', { name: text.add }).click();
    await expect(page.getByRole('status').filter({ hasText: text.added })).toBeVisible();
    const list = card.getByRole('list', { name: text.list });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByText('Laptop')).toBeVisible();
    await expect(list.getByText(text.neverUsed)).toBeVisible();
    const [credential] = await authenticator.credentials();
    expect(keyType(credential!)).toBe(algorithm.key);

    // Renamed, and the name stays after a reload.
    await list.getByRole('link', { name: lang === 'en' ? 'Rename Laptop' : 'Laptop adını değiştir' }).click();
    await list.getByLabel(lang === 'en' ? `${text.newName} Laptop` : `Laptop ${text.newName}`).fill('Work laptop');
    await list.getByRole('button', { name: text.save }).click();
    await expect(list.getByText('Work laptop')).toBeVisible();

    const mail = await openMail(page, account.email, text.mail, lang);
    await expect(mail).toContainText('Laptop');
    await expect(mail).toContainText(text.notYou);

    // Signed out, back in with the passkey alone: no address, no password.
    await signOut(page, lang);
    await expect(page.getByRole('textbox', { name: text.email, exact: true })).toHaveAttribute('autocomplete', 'email');
    await page.getByRole('button', { name: text.signIn }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/dashboard$`));
    await page.goto(`/${lang}/dashboard/settings`);
    await waitForIslands(page);
    const again = page.getByRole('region', { name: text.card, exact: true }).getByRole('list', { name: text.list });
    await expect(again.getByText('Work laptop')).toBeVisible();
    await expect(again.getByText(text.neverUsed)).toHaveCount(0);

    // Removing asks for the password again; then the passkey no longer signs in.
    await again.getByRole('link', { name: lang === 'en' ? 'Remove Work laptop' : 'Work laptop anahtarını kaldır' }).click();
    await again.getByLabel(text.password).fill(account.password);
    await again.getByRole('button', { name: text.remove, exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: text.removed })).toBeVisible();
    await expect(page.getByRole('region', { name: text.card, exact: true }).getByText(text.none)).toBeVisible();
    await signOut(page, lang);
    await page.getByRole('button', { name: text.signIn }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${lang}/login$`));
  });
}

test('passkeys: an admin with two-factor passes the second factor with a passkey instead of a code', async ({
  page,
  newBuyer,
  browser,
  baseURL,
}) => {
  const account = await newBuyer('passkey-admin');
  await confirmAddress(page, account.email, 'en');
  // The demo admin promotes the new account.
  const demo = await browser.newContext({ baseURL: baseURL! });
  try {
    await demo.request.post('/api/auth/sign-in/email', { headers: { origin: baseURL! }, data: DEMO.admin });
    const found = (await (await demo.request.get(`/api/admin/users?q=${encodeURIComponent(account.email)}`)).json()) as {
      users: { id: string }[];
    };
    const promoted = await demo.request.patch(`/api/admin/users/${found.users[0]!.id}/role`, {
      headers: { origin: baseURL! },
      data: { role: 'admin' },
    });
    expect(promoted.status()).toBe(200);
  } finally {
    await demo.close();
  }
  await withoutPasskeyAutofill(page);
  const authenticator = await virtualAuthenticator(page);
  await page.goto('/en/dashboard/settings');
  await waitForIslands(page);
  const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
  await twoFactor.getByLabel('Your password').fill(account.password);
  await twoFactor.getByRole('button', { name: 'Set up two-factor' }).click();
  const key = (await page.getByTestId('two-factor-key').textContent())!.replace(/\s/g, '');
  const totp = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 });
  await twoFactor.getByLabel('6-digit code').fill(totp.generate());
  await twoFactor.getByRole('button', { name: 'Confirm and turn on' }).click();
  await twoFactor.getByRole('link', { name: 'I have saved my codes' }).click();
  await expect(twoFactor.getByText('Two-factor authentication is on.')).toBeVisible();
  await waitForIslands(page);
  const card = page.getByRole('region', { name: 'Passkeys', exact: true });
  await card.getByLabel('Passkey name').fill('Security key');
  await card.getByLabel('Your password').fill(account.password);
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByRole('list', { name: 'Your passkeys' }).getByText('Security key')).toBeVisible();

  expect(keyType((await authenticator.credentials())[0]!)).toBe('ed25519');

  // The password, then the passkey instead of a code: the admin area opens.
  await signOut(page, 'en');
  await page.goto('/en/login?next=%2Fen%2Fadmin');
  await waitForIslands(page);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/two-factor\?next=%2Fen%2Fadmin$/);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await expect(page).toHaveURL(/\/en\/admin$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // Autofill: in a tab whose browser offers passkeys in the e-mail field, the same passkey signs in
  // without a password or a code, and the admin area opens (a passkey is a second factor). Chromium's
  // virtual authenticator picks its passkey for a waiting autofill request by itself; headless
  // Chromium shows no autofill list, so the list is the one part this does not see.
  const [passkey] = await authenticator.credentials();
  await page.context().clearCookies();
  const tab = await page.context().newPage();
  const sameKey = await virtualAuthenticator(tab);
  await sameKey.add(passkey!);
  await tab.goto('/en/login?next=%2Fen%2Fadmin');
  await expect(tab.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await expect(tab).toHaveURL(/\/en\/admin$/);
  await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(tab.getByRole('status').filter({ hasText: 'Welcome back!' })).toBeVisible();
});

test('passkeys: the autofill request gives way to the password form and the passkey button without an error', async ({
  page,
  newBuyer,
}) => {
  const account = await newBuyer('passkey-autofill');
  await confirmAddress(page, account.email, 'en');
  const authenticator = await virtualAuthenticator(page);
  await page.goto('/en/dashboard/settings');
  await waitForIslands(page);
  const card = page.getByRole('region', { name: 'Passkeys', exact: true });
  await card.getByLabel('Passkey name').fill('Phone');
  await card.getByLabel('Your password').fill(account.password);
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByRole('list', { name: 'Your passkeys' }).getByText('Phone')).toBeVisible();

  // The authenticator waits for a touch, so the sign-in page's autofill request stays open.
  await authenticator.presence(false);
  await page.context().clearCookies();
  const challenge = page.waitForResponse('**/api/auth/passkey/sign-in-options');
  await page.goto('/en/login');
  await waitForIslands(page);
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  expect((await challenge).status()).toBe(200);

  // A wrong password: only the password's refusal is said (the autofill request ended quietly).
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill('not my password');
  const again = page.waitForResponse('**/api/auth/passkey/sign-in-options');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(['Invalid email or password']);
  // …and the field offers the passkey again.
  expect((await again).status()).toBe(200);

  // The button's request replaces the waiting autofill request: nothing is said about it.
  const buttonChallenge = page.waitForResponse('**/api/auth/passkey/sign-in-options');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('button', { name: 'Waiting for your passkey…' })).toBeDisabled();
  expect((await buttonChallenge).status()).toBe(200);
  await expect(page.getByRole('alert')).toHaveText(['Invalid email or password']);

  // The password still signs in.
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
});
