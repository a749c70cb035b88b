import {
  test,
  expect,
  apiSignIn,
  apiSignUp,
  DEMO,
  unique,
  buyerWithLibrary,
  openMail,
  uniqueEmail,
  waitForIslands,
  type Account,
  type APIRequestContext,
  type Page,
} from './fixtures.ts';
import { FULL_SWEEP } from '../support/accessibility.ts';
import { authenticatorFor } from '../support/two-factor.ts';

/**
 * Every form that matters works before its script does (decision 34): with JavaScript off the
 * browser's own POST is taken by the page (next page, or the form again with translated errors and
 * what was typed, never a password); filled and sent while the island's script is still on its way,
 * it goes through the same way; filled (as autofill does) before the island hydrates, the island
 * keeps what the fields hold. `npm test` runs one case of each kind; `npm run test:sweep` every
 * form in both languages, JavaScript off and held back.
 */
type Lang = 'en' | 'tr';
type Mode = 'off' | 'held';

const WORDS = {
  en: {
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    wrong: 'Invalid email or password',
    linkEmail: 'Address to send the link to',
    linkButton: 'E-mail me a sign-in link',
    linkSent: 'a sign-in link is on its way',
    showPassword: 'Show password',
    contact: {
      title: 'Send us a message',
      name: 'Name',
      email: 'E-mail',
      subject: 'Subject',
      message: 'Message',
      send: 'Send message',
    },
    contactSent: 'Your message has been sent',
    emailInvalid: 'Invalid email address',
    fullName: 'Full name',
    confirmPassword: 'Confirm password',
    mismatch: "Passwords don't match",
    signUp: 'Create account',
    sendReset: 'Send Reset Link',
    checkEmail: 'Check Your Email',
    resetSubject: /^Reset your .* password$/,
    verifySubject: /^Confirm your e-mail address/,
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
    updatePassword: 'Update password',
    code: '6-digit code',
    verify: 'Verify',
    codeWrong: 'That code is not right',
    useBackupCode: 'Use a backup code instead',
    backupCode: 'Backup code',
    review: {
      write: 'Rate this course',
      text: 'Your review (optional)',
      fourStars: '4 stars',
      save: 'Save review',
      saved: 'Thank you! Your review is saved.',
      ratingRequired: 'Choose a rating from 1 to 5 stars.',
    },
    checkout: {
      email: 'Email',
      fullName: 'Full name',
      terms: /^I agree to the Terms of service/,
      waive: /^I ask for immediate access/,
      enrolFree: 'Enrol for free',
      pay: 'Proceed to payment',
      termsRequired: 'Please agree to the Terms of service to continue.',
      haveCode: 'Have a code?',
      code: 'Discount code',
      apply: 'Apply',
      codeUnknown: 'This code does not exist or is no longer active.',
      applied: (code: string) => `Code ${code} applied`,
      demoPay: (total: string) => `Pay ${total}`,
      enrolled: "You're enrolled!",
    },
    account: {
      newEmail: 'New e-mail address',
      changeEmail: 'Change e-mail',
      signOutOthers: 'Sign out all other devices',
      othersSignedOut: 'Your other devices are signed out.',
      deletePassword: 'Your password, to confirm',
      deleteConfirm: 'I understand that this cannot be undone.',
      deleteAccount: 'Delete my account',
      deleteConfirmRequired: 'Please confirm that you want to delete your account.',
      passkeysNeedScript: /^Adding a passkey needs JavaScript/,
      addPasskey: 'Add a passkey',
    },
    twoFactor: {
      title: 'Two-factor authentication',
      password: 'Your password',
      setUp: 'Set up two-factor',
      qr: 'QR code for your authenticator app',
      confirm: 'Confirm and turn on',
      codes: 'Backup codes',
      saved: 'I have saved my codes',
      on: 'Two-factor authentication turned on.',
      newCodes: 'Make new backup codes',
      renewed: 'New backup codes made; the old ones no longer work.',
    },
    settings: {
      profile: 'Profile',
      language: 'Language',
      save: 'Save profile',
      current: 'Current password',
      newPassword: 'New password',
      confirm: 'Confirm new password',
      update: 'Update password',
      profileSaved: 'Profile updated successfully!',
      passwordSaved: 'Password updated successfully!',
      wrongCurrent: 'Your current password is not correct',
      nameTooShort: 'Full name must be at least 2 characters',
    },
  },
  tr: {
    email: 'E-posta',
    password: 'Şifre',
    signIn: 'Giriş yap',
    wrong: 'E-posta ya da şifre hatalı',
    linkEmail: 'Bağlantının gönderileceği adres',
    linkButton: 'Bana giriş bağlantısı gönder',
    linkSent: 'giriş bağlantısı yolda',
    showPassword: 'Şifreyi göster',
    contact: {
      title: 'Bize mesaj gönderin',
      name: 'Ad',
      email: 'E-posta',
      subject: 'Konu',
      message: 'Mesaj',
      send: 'Mesajı gönder',
    },
    contactSent: 'Mesajınız gönderildi',
    emailInvalid: 'Geçersiz e-posta adresi',
    fullName: 'Ad soyad',
    confirmPassword: 'Şifreyi onayla',
    mismatch: 'Şifreler eşleşmiyor',
    signUp: 'Hesap oluştur',
    sendReset: 'Sıfırlama Bağlantısı Gönder',
    checkEmail: 'E-postanızı Kontrol Edin',
    resetSubject: /şifrenizi sıfırlayın$/,
    verifySubject: /e-posta adresinizi doğrulayın$/,
    newPassword: 'Yeni şifre',
    confirmNewPassword: 'Yeni şifreyi onayla',
    updatePassword: 'Şifreyi güncelle',
    code: '6 haneli kod',
    verify: 'Doğrula',
    codeWrong: 'Bu kod doğru değil',
    useBackupCode: 'Bunun yerine yedek kod kullan',
    backupCode: 'Yedek kod',
    review: {
      write: 'Bu kursu değerlendirin',
      text: 'Yorumunuz (isteğe bağlı)',
      fourStars: '4 yıldız',
      save: 'Değerlendirmeyi kaydet',
      saved: 'Teşekkürler! Değerlendirmeniz kaydedildi.',
      ratingRequired: '1 ile 5 yıldız arasında bir puan seçin.',
    },
    checkout: {
      email: 'E-posta',
      fullName: 'Ad soyad',
      terms: /^Kullanım Koşulları'nı/,
      waive: /^Kursa hemen erişmek istiyorum/,
      enrolFree: 'Ücretsiz kaydol',
      pay: 'Ödemeye geç',
      termsRequired: "Devam etmek için Kullanım Koşulları'nı kabul edin.",
      haveCode: 'İndirim kodunuz var mı?',
      code: 'İndirim kodu',
      apply: 'Uygula',
      codeUnknown: 'Bu kod mevcut değil ya da artık geçerli değil.',
      applied: (code: string) => `${code} kodu uygulandı`,
      demoPay: (total: string) => `${total} öde`,
      enrolled: 'Kaydınız tamamlandı!',
    },
    account: {
      newEmail: 'Yeni e-posta adresi',
      changeEmail: 'E-postayı değiştir',
      signOutOthers: 'Diğer tüm cihazlarda oturumu kapat',
      othersSignedOut: 'Diğer cihazlarınızdaki oturumlar kapatıldı.',
      deletePassword: 'Onay için şifreniz',
      deleteConfirm: 'Bunun geri alınamayacağını anlıyorum.',
      deleteAccount: 'Hesabımı sil',
      deleteConfirmRequired: 'Lütfen hesabınızı silmek istediğinizi onaylayın.',
      passkeysNeedScript: /^Geçiş anahtarı eklemek için JavaScript gerekiyor/,
      addPasskey: 'Geçiş anahtarı ekle',
    },
    twoFactor: {
      title: 'İki adımlı doğrulama',
      password: 'Şifreniz',
      setUp: 'İki adımlı doğrulamayı kur',
      qr: 'Doğrulama uygulamanız için QR kodu',
      confirm: 'Onayla ve aç',
      codes: 'Yedek kodlar',
      saved: 'Kodlarımı sakladım',
      on: 'İki adımlı doğrulama açıldı.',
      newCodes: 'Yeni yedek kodlar oluştur',
      renewed: 'Yeni yedek kodlar oluşturuldu; eskileri artık çalışmaz.',
    },
    settings: {
      profile: 'Profil',
      language: 'Dil',
      save: 'Profili kaydet',
      current: 'Mevcut şifre',
      newPassword: 'Yeni şifre',
      confirm: 'Yeni şifreyi onayla',
      update: 'Şifreyi güncelle',
      profileSaved: 'Profil başarıyla güncellendi!',
      passwordSaved: 'Şifreniz başarıyla güncellendi!',
      wrongCurrent: 'Mevcut şifreniz doğru değil',
      nameTooShort: 'Ad soyad en az 2 karakter olmalıdır',
    },
  },
} as const;

/**
 * Holds back every script of the shop's bundle (islands and page scripts) until `release`, as a
 * slow phone does: the page is there, its forms are the browser's own.
 */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/.*\.js(\?.*)?$/, async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

/** Opens a page as the mode has it: without JavaScript, or with its scripts held back (returns their release). */
async function open(page: Page, mode: Mode, path: string): Promise<() => void> {
  const release = mode === 'held' ? await holdScripts(page) : () => {};
  await page.goto(path, { waitUntil: 'commit' });
  await expect(page.locator('main')).toBeVisible();
  return release;
}

/** A fresh account, signed in on `request` (a context of its own: the page stays signed out). */
interface Who {
  account: Account;
  request: APIRequestContext;
  origin: string;
}
const signedUp = async (request: APIRequestContext, baseURL: string | undefined, lang: Lang): Promise<Who> => ({
  account: await apiSignUp(request, baseURL!, { name: 'prehydration', language: lang }),
  request,
  origin: baseURL!,
});

/** A course of the demo catalogue in that language: free, or paid (its price in its own currency). */
async function courseOf(request: APIRequestContext, lang: Lang, kind: 'free' | 'paid'): Promise<string> {
  const { courses } = (await (await request.get(`/api/courses?language=${lang}`)).json()) as {
    courses: { id: string; priceMinor: number }[];
  };
  return courses.find((course) => (kind === 'free' ? course.priceMinor === 0 : course.priceMinor > 0))!.id;
}

/** A fresh 20 % code for every course, made by the seller (the demo admin) in a context of their own. */
async function sellersCode(page: Page, origin: string): Promise<string> {
  const admin = await page.context().browser()!.newContext({ baseURL: origin });
  try {
    await apiSignIn(admin.request, origin, DEMO.admin);
    const code = `EARLY${unique().toUpperCase()}`.slice(0, 20);
    const made = await admin.request.post('/api/admin/discounts', {
      headers: { origin },
      data: { code, kind: 'percent', percent: '20' },
    });
    expect(made.status(), 'the seller’s code').toBe(201);
    return code;
  } finally {
    await admin.close();
  }
}

const cases = {
  async signIn(page: Page, lang: Lang, mode: Mode, who: Who) {
    const words = WORDS[lang];
    const release = await open(page, mode, `/${lang}/login?next=%2F${lang}%2Fdashboard%2Fsettings`);
    const email = page.getByRole('textbox', { name: words.email, exact: true });
    const password = page.getByLabel(words.password, { exact: true });
    await email.fill(who.account.email);
    await password.fill('not the password 1');
    await password.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: words.wrong })).toBeVisible();
    await expect(email).toHaveValue(who.account.email);
    await expect(password).toHaveValue('');
    expect(await page.content()).not.toContain('not the password 1');
    await password.fill(who.account.password);
    await page.getByRole('button', { name: words.signIn, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/dashboard/settings$`));
    release();
  },

  async signInLink(page: Page, lang: Lang, mode: Mode, who: Who) {
    const words = WORDS[lang];
    const release = await open(page, mode, `/${lang}/login`);
    const email = page.getByRole('textbox', { name: words.linkEmail, exact: true });
    await email.fill('not an address');
    await page.getByRole('button', { name: words.linkButton }).click();
    await expect(page.getByText(words.emailInvalid)).toBeVisible();
    await expect(page.getByRole('textbox', { name: words.linkEmail, exact: true })).toHaveValue('not an address');
    await page.getByRole('textbox', { name: words.linkEmail, exact: true }).fill(who.account.email);
    await page.getByRole('button', { name: words.linkButton }).click();
    await expect(page.getByRole('status').filter({ hasText: words.linkSent })).toBeVisible();
    release();
  },

  async contact(page: Page, lang: Lang, mode: Mode) {
    const words = WORDS[lang];
    const release = await open(page, mode, `/${lang}/contact`);
    const form = page.getByRole('form', { name: words.contact.title });
    await form.getByLabel(words.contact.name).fill('Ayşe Yılmaz');
    await form.getByRole('textbox', { name: words.contact.email, exact: true }).fill('not an address');
    await form.getByLabel(words.contact.subject).fill('A question about a course');
    await form.getByLabel(words.contact.message).fill('Is there a certificate when I finish it?');
    await form.getByRole('button', { name: words.contact.send }).click();
    await expect(form.getByText(words.emailInvalid)).toBeVisible();
    await expect(form.getByRole('textbox', { name: words.contact.email, exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel(words.contact.message)).toHaveValue('Is there a certificate when I finish it?');
    await form.getByRole('textbox', { name: words.contact.email, exact: true }).fill(`someone-${Date.now()}@example.com`);
    await form.getByRole('button', { name: words.contact.send }).click();
    await expect(page.getByRole('status').filter({ hasText: words.contactSent })).toBeVisible();
    release();
  },

  async signUp(page: Page, lang: Lang, mode: Mode) {
    const words = WORDS[lang];
    const release = await open(page, mode, `/${lang}/signup`);
    const email = uniqueEmail('prehydration-signup');
    await page.getByLabel(words.fullName).fill('Ayşe Yılmaz');
    await page.getByRole('textbox', { name: words.email, exact: true }).fill(email);
    await page.getByLabel(words.password, { exact: true }).fill('correct horse 2026');
    await page.getByLabel(words.confirmPassword).fill('another horse 2026');
    await page.getByRole('button', { name: words.signUp }).click();
    await expect(page.getByText(words.mismatch)).toBeVisible();
    await expect(page.getByLabel(words.fullName)).toHaveValue('Ayşe Yılmaz');
    await expect(page.getByRole('textbox', { name: words.email, exact: true })).toHaveValue(email);
    expect(await page.content()).not.toContain('horse 2026');
    await page.getByLabel(words.password, { exact: true }).fill('correct horse 2026');
    await page.getByLabel(words.confirmPassword).fill('correct horse 2026');
    await page.getByRole('button', { name: words.signUp }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/dashboard$`));
    release();
  },

  async forgotAndReset(page: Page, lang: Lang, mode: Mode, who: Who) {
    const words = WORDS[lang];
    const release = await open(page, mode, `/${lang}/forgot-password`);
    await page.getByRole('textbox', { name: words.email, exact: true }).fill(who.account.email);
    await page.getByRole('button', { name: words.sendReset }).click();
    await expect(page.getByRole('heading', { name: words.checkEmail })).toBeVisible();
    // The mail is read in a page of its own (scripts run there, as in any mail client).
    const mailbox = await page.context().newPage();
    const mail = await openMail(mailbox, who.account.email, words.resetSubject, lang);
    const link = (await mail
      .getByRole('link', { name: /reset-password\?token=/ })
      .first()
      .getAttribute('href'))!;
    await mailbox.close();
    release();
    const releaseAgain = await open(page, mode, new URL(link).pathname + new URL(link).search);
    await page.getByLabel(words.newPassword, { exact: true }).fill('brand new horse 42');
    await page.getByLabel(words.confirmNewPassword).fill('another new horse 42');
    await page.getByRole('button', { name: words.updatePassword }).click();
    await expect(page.getByText(words.mismatch)).toBeVisible();
    await page.getByLabel(words.newPassword, { exact: true }).fill('brand new horse 42');
    await page.getByLabel(words.confirmNewPassword).fill('brand new horse 42');
    await page.getByRole('button', { name: words.updatePassword }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    releaseAgain();
  },

  async twoFactor(page: Page, lang: Lang, mode: Mode, who: Who) {
    const words = WORDS[lang];
    // Two-factor is for an account that proved its address: its confirmation link, opened by the account's own client.
    const mailbox = await page.context().newPage();
    const mail = await openMail(mailbox, who.account.email, words.verifySubject, lang);
    const confirm = (await mail
      .getByRole('link', { name: /\/api\/auth\/verify-email/ })
      .first()
      .getAttribute('href'))!;
    await mailbox.close();
    await who.request.get(confirm, { headers: { origin: who.origin } });

    // Set up in Settings: the password, the QR code (drawn by the page), a wrong code, the right one, the backup codes.
    const text = words.twoFactor;
    await apiSignIn(page.request, who.origin, { email: who.account.email, password: who.account.password });
    const releaseSettings = await open(page, mode, `/${lang}/dashboard/settings`);
    const card = page.getByRole('region', { name: text.title });
    await card.getByLabel(text.password).fill(who.account.password);
    await card.getByRole('button', { name: text.setUp }).click();
    await expect(card.getByRole('img', { name: text.qr })).toBeVisible();
    const key = (await card.getByTestId('two-factor-key').textContent())!.replace(/\s/g, '');
    const code = authenticatorFor(`otpauth://totp/shop?secret=${key}`);
    const wrong = () => {
      const used = new Set([code(-1), code(), code(1)]);
      return ['000000', '111111', '222222', '333333'].find((candidate) => !used.has(candidate))!;
    };
    await card.getByLabel(words.code).fill(wrong());
    await card.getByRole('button', { name: text.confirm }).click();
    await expect(card.getByText(words.codeWrong)).toBeVisible();
    await expect(card.getByRole('img', { name: text.qr })).toBeVisible();
    await card.getByLabel(words.code).fill(code());
    await card.getByRole('button', { name: text.confirm }).click();
    const shown = card.getByRole('list', { name: text.codes }).getByRole('listitem');
    await expect(shown).toHaveCount(10);
    const first = (await shown.first().textContent())!;
    await card.getByRole('link', { name: text.saved }).click();
    await expect(page.getByRole('status').filter({ hasText: text.on })).toBeVisible();
    // New backup codes, shown once on the page that answered; the old ones stop working.
    await card.getByLabel(text.password).fill(who.account.password);
    await card.getByRole('button', { name: text.newCodes }).click();
    await expect(shown).toHaveCount(10);
    const backupCode = (await shown.first().textContent())!;
    expect(backupCode).not.toBe(first);
    await card.getByRole('link', { name: text.saved }).click();
    await expect(page.getByRole('status').filter({ hasText: text.renewed })).toBeVisible();
    releaseSettings();

    await page.context().clearCookies();
    const release = await open(page, mode, `/${lang}/login`);
    await page.getByRole('textbox', { name: words.email, exact: true }).fill(who.account.email);
    await page.getByLabel(words.password, { exact: true }).fill(who.account.password);
    await page.getByRole('button', { name: words.signIn, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/two-factor\\?next=`));
    await expect(page.getByLabel(words.code)).toBeVisible();
    await page.getByLabel(words.code).fill(wrong());
    await page.getByRole('button', { name: words.verify }).click();
    await expect(page.getByRole('alert').filter({ hasText: words.codeWrong })).toBeVisible();
    // A lost phone: one of the backup codes instead, reached by a link that works without the script.
    await page.getByRole('link', { name: words.useBackupCode }).click();
    await page.getByLabel(words.backupCode).fill(backupCode);
    await page.getByRole('button', { name: words.verify }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/dashboard$`));
    release();
  },

  async checkoutFree(page: Page, lang: Lang, mode: Mode, who: Who) {
    const words = WORDS[lang].checkout;
    const release = await open(page, mode, `/${lang}/checkout/${await courseOf(who.request, lang, 'free')}`);
    const email = uniqueEmail('prehydration-free');
    await page.getByRole('textbox', { name: words.email, exact: true }).fill(email);
    await page.getByLabel(words.fullName).fill('Elif Şahin');
    // A free enrolment asks only for the Terms.
    await page.getByRole('button', { name: words.enrolFree }).click();
    await expect(page.getByRole('alert').filter({ hasText: words.termsRequired })).toBeVisible();
    await expect(page.getByRole('textbox', { name: words.email, exact: true })).toHaveValue(email);
    await expect(page.getByLabel(words.fullName)).toHaveValue('Elif Şahin');
    await page.getByRole('checkbox', { name: words.terms }).check();
    await page.getByRole('button', { name: words.enrolFree }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/success\\?session_id=free_`));
    await expect(page.getByRole('heading', { name: words.enrolled })).toBeVisible();
    release();
  },

  async checkoutPaid(page: Page, lang: Lang, mode: Mode, who: Who) {
    const words = WORDS[lang].checkout;
    const code = await sellersCode(page, who.origin);
    const release = await open(page, mode, `/${lang}/checkout/${await courseOf(who.request, lang, 'paid')}`);
    const email = uniqueEmail('prehydration-paid');
    await page.getByRole('textbox', { name: words.email, exact: true }).fill(email);
    await page.getByLabel(words.fullName).fill('Can Öztürk');
    await page.getByRole('checkbox', { name: words.terms }).check();
    // The code: a wrong one is refused at its field, the seller's is applied, and nothing typed is lost.
    await page.getByText(words.haveCode).click();
    await page.getByLabel(words.code).fill('NOPE-NOPE');
    await page.getByRole('button', { name: words.apply }).click();
    await expect(page.getByText(words.codeUnknown)).toBeVisible();
    await expect(page.getByLabel(words.code)).toHaveValue('NOPE-NOPE');
    await page.getByLabel(words.code).fill(code.toLowerCase());
    await page.getByRole('button', { name: words.apply }).click();
    await expect(page.getByRole('status').filter({ hasText: words.applied(code) })).toBeVisible();
    await expect(page.getByRole('textbox', { name: words.email, exact: true })).toHaveValue(email);
    await expect(page.getByLabel(words.fullName)).toHaveValue('Can Öztürk');
    await expect(page.getByRole('checkbox', { name: words.terms })).toBeChecked();
    const total = (await page.getByTestId('checkout-total').textContent())!;
    await page.getByRole('checkbox', { name: words.waive }).check();
    await page.getByRole('button', { name: words.pay }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/demo/demo_`));
    await expect(page.getByRole('button', { name: words.demoPay(total) })).toBeVisible();
    release();
  },

  async settings(page: Page, lang: Lang, mode: Mode, who: Who) {
    const { email, password } = who.account;
    const signedIn = await page.request.post('/api/auth/sign-in/email', {
      headers: { origin: who.origin },
      data: { email, password },
    });
    expect(signedIn.status()).toBe(200);
    const words = WORDS[lang].settings;
    const other: Lang = lang === 'en' ? 'tr' : 'en';
    const release = await open(page, mode, `/${lang}/dashboard/settings`);
    const name = page.getByLabel(WORDS[lang].fullName);
    await name.fill('A');
    await page.getByRole('button', { name: words.save }).click();
    await expect(page.getByText(words.nameTooShort)).toBeVisible();
    await expect(page.getByLabel(WORDS[lang].fullName)).toHaveValue('A');
    await page.getByLabel(WORDS[lang].fullName).fill('Ayşe Işık');
    await page.getByRole('region', { name: words.profile }).getByLabel(words.language).selectOption(other);
    await page.getByRole('button', { name: words.save }).click();
    // The page follows the language chosen, and says it in it.
    await expect(page).toHaveURL(new RegExp(`/${other}/dashboard/settings\\?saved=profile$`));
    await expect(page.getByRole('status').filter({ hasText: WORDS[other].settings.profileSaved })).toBeVisible();
    await expect(page.getByLabel(WORDS[other].fullName)).toHaveValue('Ayşe Işık');

    const text = WORDS[other].settings;
    await page.getByLabel(text.current).fill('not my password 1');
    await page.getByLabel(text.newPassword, { exact: true }).fill('a newer horse 2026');
    await page.getByLabel(text.confirm).fill('a newer horse 2026');
    await page.getByRole('button', { name: text.update }).click();
    await expect(page.getByText(text.wrongCurrent).first()).toBeVisible();
    expect(await page.content()).not.toContain('horse 2026');
    await page.getByLabel(text.current).fill(who.account.password);
    await page.getByLabel(text.newPassword, { exact: true }).fill('a newer horse 2026');
    await page.getByLabel(text.confirm).fill('a newer horse 2026');
    await page.getByRole('button', { name: text.update }).click();
    await expect(page.getByRole('status').filter({ hasText: text.passwordSaved })).toBeVisible();
    release();
  },

  async accountForms(page: Page, lang: Lang, mode: Mode, who: Who) {
    const { email, password } = who.account;
    await apiSignIn(page.request, who.origin, { email, password });
    const words = WORDS[lang].account;
    const release = await open(page, mode, `/${lang}/dashboard/settings`);
    if (mode === 'off') {
      // What only a script can do (a passkey's ceremony) says so: no dead button.
      await expect(page.getByText(words.passkeysNeedScript)).toBeVisible();
      await expect(page.getByRole('button', { name: words.addPasskey })).toBeHidden();
    }
    // A new address: refused at its field while it is none, then a confirmation link goes to it.
    await page.getByRole('textbox', { name: words.newEmail, exact: true }).fill('not an address');
    await page.getByRole('button', { name: words.changeEmail }).click();
    await expect(page.getByText(WORDS[lang].emailInvalid)).toBeVisible();
    await expect(page.getByRole('textbox', { name: words.newEmail, exact: true })).toHaveValue('not an address');
    const newEmail = uniqueEmail('moved');
    await page.getByRole('textbox', { name: words.newEmail, exact: true }).fill(newEmail);
    await page.getByRole('button', { name: words.changeEmail }).click();
    await expect(page.getByRole('status').filter({ hasText: newEmail })).toBeVisible();
    // The account's other device (the API client that signed it up) is signed out; this one stays.
    await page.getByRole('button', { name: words.signOutOthers }).click();
    await expect(page.getByRole('status').filter({ hasText: words.othersSignedOut })).toBeVisible();
    expect(await (await who.request.get('/api/auth/get-session')).json()).toBeNull();
    // The account goes only with an explicit yes and its password.
    await page.getByLabel(words.deletePassword).fill(password);
    await page.getByRole('button', { name: words.deleteAccount }).click();
    await expect(page.getByText(words.deleteConfirmRequired)).toBeVisible();
    expect(await page.content()).not.toContain(password);
    await page.getByLabel(words.deletePassword).fill(password);
    await page.getByLabel(words.deleteConfirm).check();
    await page.getByRole('button', { name: words.deleteAccount }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/$`));
    const again = await page.request.post('/api/auth/sign-in/email', {
      headers: { origin: who.origin },
      data: { email, password },
    });
    expect(again.status()).toBe(401);
    release();
  },

  async review(page: Page, lang: Lang, mode: Mode, who: Who) {
    test.setTimeout(60_000);
    // A buyer who owns courses (the page signed in as them), one of them not reviewed yet.
    await buyerWithLibrary(page, who.origin);
    const words = WORDS[lang].review;
    const release = await open(page, mode, `/${lang}/dashboard/courses`);
    await page.locator('summary').filter({ hasText: words.write }).first().click();
    const form = page.getByRole('form', { name: new RegExp(`^${words.write}`) }).first();
    const title = await form.getAttribute('aria-labelledby');
    const again = page.locator(`form:has(#${title})`);
    await form.getByLabel(words.text).fill('Clear and short.');
    await form.getByRole('button', { name: words.save }).click();
    await expect(again.getByText(words.ratingRequired)).toBeVisible();
    await expect(again.getByLabel(words.text)).toHaveValue('Clear and short.');
    await again.getByLabel(words.fourStars).check();
    await again.getByRole('button', { name: words.save }).click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/dashboard/courses\\?reviewed=`));
    await expect(page.getByRole('status').filter({ hasText: words.saved })).toBeVisible();
    await expect(again.getByLabel(words.fourStars)).toBeChecked();
    release();
  },
};

type CaseName = keyof typeof cases;
const LANGS: Lang[] = ['en', 'tr'];
/** `npm test`: one case per kind of form; the sweep: every form, both languages. */
const OFF: [CaseName, Lang][] = FULL_SWEEP
  ? (Object.keys(cases) as CaseName[]).flatMap((name) => LANGS.map((lang) => [name, lang] as [CaseName, Lang]))
  : [
      ['signIn', 'tr'],
      ['signUp', 'en'],
      ['contact', 'en'],
      ['checkoutPaid', 'en'],
      ['accountForms', 'tr'],
      ['twoFactor', 'en'],
    ];
const HELD: [CaseName, Lang][] = FULL_SWEEP
  ? (Object.keys(cases) as CaseName[]).flatMap((name) => LANGS.map((lang) => [name, lang] as [CaseName, Lang]))
  : [];

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });
  for (const [name, lang] of OFF)
    test(`${name} (${lang})`, async ({ page, request, baseURL }) => {
      await cases[name](page, lang, 'off', await signedUp(request, baseURL, lang));
    });
});

test.describe('before the island hydrates', () => {
  for (const [name, lang] of HELD)
    test(`${name} (${lang})`, async ({ page, request, baseURL }) => {
      await cases[name](page, lang, 'held', await signedUp(request, baseURL, lang));
    });

  test('sign-in filled and sent while the island is on its way: signed in (en)', async ({ page, request, baseURL }) => {
    const { account } = await signedUp(request, baseURL, 'en');
    const release = await open(page, 'held', '/en/login');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/en\/dashboard$/);
    release();
  });

  for (const lang of FULL_SWEEP ? LANGS : (['tr'] as const))
    test(`autofill before hydration is kept, and the island signs in with it (${lang})`, async ({ page, request, baseURL }) => {
      const words = WORDS[lang];
      const { account } = await signedUp(request, baseURL, lang);
      const release = await open(page, 'held', `/${lang}/login`);
      // Autofill sets values without keystrokes the island could hear.
      await page.getByRole('textbox', { name: words.email, exact: true }).fill(account.email);
      await page.getByLabel(words.password, { exact: true }).fill(account.password);
      release();
      await waitForIslands(page);
      // The island is in charge once its own button shows the password (the browser alone would not).
      const password = page.getByLabel(words.password, { exact: true });
      await expect(async () => {
        await page.getByRole('button', { name: words.showPassword }).click();
        await expect(password).toHaveAttribute('type', 'text', { timeout: 500 });
      }).toPass();
      await expect(page.getByRole('textbox', { name: words.email, exact: true })).toHaveValue(account.email);
      await expect(password).toHaveValue(account.password);
      const sent = page.waitForRequest('**/api/auth/sign-in/email');
      await page.getByRole('button', { name: words.signIn, exact: true }).click();
      await sent;
      await expect(page).toHaveURL(new RegExp(`/${lang}/dashboard$`));
    });
  const CHECKOUTS: ['free' | 'paid', Lang][] = FULL_SWEEP
    ? [
        ['free', 'en'],
        ['free', 'tr'],
        ['paid', 'en'],
        ['paid', 'tr'],
      ]
    : [['paid', 'tr']];
  for (const [kind, lang] of CHECKOUTS)
    test(`a ${kind} checkout filled before hydration is kept, code and boxes too, and the island sends it (${lang})`, async ({
      page,
      request,
      baseURL,
    }) => {
      const words = WORDS[lang].checkout;
      const code = kind === 'paid' ? await sellersCode(page, baseURL!) : '';
      const release = await open(page, 'held', `/${lang}/checkout/${await courseOf(request, lang, kind)}`);
      // Autofill and a quick hand fill the fields before the island has woken up.
      const email = uniqueEmail('autofill-checkout');
      await page.getByRole('textbox', { name: words.email, exact: true }).fill(email);
      await page.getByLabel(words.fullName).fill('Deniz Kaya');
      await page.getByRole('checkbox', { name: words.terms }).check();
      if (kind === 'paid') {
        await page.getByRole('checkbox', { name: words.waive }).check();
        await page.getByText(words.haveCode).click();
        await page.getByLabel(words.code).fill(code);
      }
      release();
      await waitForIslands(page);
      await expect(page.getByRole('textbox', { name: words.email, exact: true })).toHaveValue(email);
      await expect(page.getByLabel(words.fullName)).toHaveValue('Deniz Kaya');
      await expect(page.getByRole('checkbox', { name: words.terms })).toBeChecked();
      if (kind === 'paid') {
        await expect(page.getByRole('checkbox', { name: words.waive })).toBeChecked();
        // The island applies the code it found in the field, through its own request.
        const quoted = page.waitForRequest('**/api/checkout/quote');
        await page.getByRole('button', { name: words.apply }).click();
        await quoted;
        await expect(page.getByRole('status').filter({ hasText: words.applied(code) })).toBeVisible();
      }
      const sent = page.waitForRequest('**/api/checkout');
      await page.getByRole('button', { name: kind === 'paid' ? words.pay : words.enrolFree }).click();
      await sent;
      await expect(page).toHaveURL(new RegExp(`/${lang}/checkout/${kind === 'paid' ? 'demo/demo_' : 'success'}`));
    });
});

test('a form posted to a page from another site is refused', async ({ request }) => {
  const response = await request.post('/en/login', {
    headers: { origin: 'https://elsewhere.example' },
    form: { form: 'login', email: 'someone@example.com', password: 'whatever 123' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
});
