import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../src/i18n/locales/tr.json' with { type: 'json' };
import { expect, openMail, test, uniqueEmail } from './fixtures.ts';

/**
 * A reader subscribes from the footer, confirms by the mailed link (double opt-in), and leaves from
 * the preferences page the welcome mail links to: in both languages (the sweep's every-page and
 * forms-before-JavaScript runs cover the pages at every width and without scripts).
 */
const DICTIONARIES = { en, tr } as const;
const subjectOf = (text: string) => new RegExp(`^${text.replace('{{shop}}', '.+')}$`);

for (const lang of ['en', 'tr'] as const) {
  test(`double opt-in from the footer, then unsubscribe from everything (${lang})`, async ({ page }) => {
    const t = DICTIONARIES[lang];
    const email = uniqueEmail(`subscriber-${lang}`);
    await page.goto(`/${lang}/blog`);
    const form = page.getByRole('form', { name: t['audience.footerTitle'] });
    await form.getByLabel(t['audience.email']).fill(email);
    await form.getByRole('button', { name: t['audience.subscribe'] }).click();
    await expect(page.getByRole('status')).toHaveText(t['audience.sent']);

    const confirmation = await openMail(page, email, subjectOf(t['mail.subscribeSubject']), lang);
    await confirmation.getByRole('link', { name: /\/subscribe\/confirm\?token=/ }).click();
    await page.getByRole('button', { name: t['audience.confirm.button'] }).click();
    await expect(page.getByRole('status')).toHaveText(t['audience.prefs.doneConfirmed']);

    const welcome = await openMail(page, email, subjectOf(t['mail.welcomeSubject']), lang);
    await welcome.getByRole('link', { name: /\/subscription\?token=/ }).click();
    await expect(page.getByRole('checkbox', { name: t['audience.topic.courses'] })).toBeChecked();
    await page.getByRole('button', { name: t['audience.prefs.leave'] }).click();
    await expect(page.getByRole('status')).toHaveText(t['audience.prefs.doneLeft']);
    await expect(page.getByRole('button', { name: t['audience.prefs.rejoin'] })).toBeVisible();
  });
}
