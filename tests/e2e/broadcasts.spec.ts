import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../src/i18n/locales/tr.json' with { type: 'json' };
import { DEMO, expect, openMail, test, unique } from './fixtures.ts';

/**
 * The seller writes a broadcast in Admin → Mail, sees it rendered through the e-mail kit at a phone's
 * and a desktop's width (its topic chosen), and sends a test to themselves, which arrives with its unsubscribe link: in
 * both languages, with JavaScript off. Sending to the list is tests/integration/mail/broadcasts.test.ts (and the sweep).
 */
const DICTIONARIES = { en, tr } as const;

// Admin → Mail's forms are the browser's own posts: they work without JavaScript, so this runs without it.
test.use({ javaScriptEnabled: false });

for (const lang of ['en', 'tr'] as const) {
  test(`compose a broadcast, preview it, send a test to yourself (${lang})`, async ({ page, signIn }) => {
    const t = DICTIONARIES[lang];
    const subject = `${lang === 'tr' ? 'Yeni kurs' : 'New course'} ${unique()}`;
    await signIn(DEMO.admin);
    await page.goto(`/${lang}/admin/mail`);
    await page.getByLabel(t['admin.mail.subject'], { exact: true }).fill(subject);
    await page
      .getByLabel(t['admin.mail.body'])
      .fill(lang === 'tr' ? '## Merhaba\n\n**İlk** kursumuz çıktı.' : '## Hello\n\nOur **first** course is out.');
    // News of an article: only subscribers who kept that topic will get it.
    const articles = page
      .getByRole('group', { name: t['admin.mail.topic'] })
      .getByRole('radio', { name: t['audience.topic.articles'] });
    await articles.check();
    await page.getByRole('button', { name: t['admin.mail.save'] }).click();
    await expect(page.getByRole('status')).toHaveText(t['admin.mail.done.saved']);
    await expect(articles).toBeChecked();

    for (const width of ['admin.mail.previewPhone', 'admin.mail.previewDesktop'] as const) {
      const preview = page.frameLocator(`iframe[title="${t[width]}"]`);
      await expect(preview.getByRole('heading', { name: lang === 'tr' ? 'Merhaba' : 'Hello' })).toBeVisible();
      await expect(preview.getByRole('link', { name: t['mail.subscriberPreferences'] })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: subject })).toBeVisible();

    await page.getByRole('button', { name: t['admin.mail.sendTest'] }).click();
    await expect(page.getByRole('status')).toHaveText(t['admin.mail.done.tested'].replace('{{email}}', DEMO.admin.email));
    const mail = await openMail(page, DEMO.admin.email, subject, lang);
    await expect(mail.getByRole('link', { name: /\/subscription\?token=/ })).toBeVisible();
  });
}
