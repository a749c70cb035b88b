import type { Locator } from '@playwright/test';
import { DEMO, expect, test, type Page, waitForIslands } from './fixtures.ts';
import { FULL_SWEEP } from '../support/accessibility.ts';
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../src/i18n/locales/tr.json' with { type: 'json' };

const LANGS = ['en', 'tr'] as const;

/**
 * A buyer who uses the keyboard alone: Tab and Shift+Tab to move, Enter and Space to act, arrow keys
 * in lists, Escape to close, and typing into fields. No click and no focus() call; the only page
 * loaded directly is the first one.
 */
type Key = keyof typeof en;

/** Presses Tab (or Shift+Tab) until the element has the focus; fails when it is not reachable. */
async function tabTo(page: Page, target: Locator, { back = false, max = 120 } = {}) {
  await expect(target).toHaveCount(1);
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Not reachable with ${back ? 'Shift+Tab' : 'Tab'}: ${String(target)}`);
}

async function expectPdf(page: Page, press: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), press()]);
  const bytes = await (await download.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');
}

const JOURNEYS = {
  en: { free: 'Five-Minute Stress Resets', paid: 'STAR' },
  tr: { free: 'Stresi Yatağa Götürme', paid: 'Dağınıklığa Son' },
} as const;

// `npm test` walks each journey in one language (both languages between them); `npm run test:sweep` in both.
for (const lang of FULL_SWEEP ? LANGS : (['en'] as const)) {
  const say = (key: Key) => (lang === 'en' ? en : tr)[key];
  const journey = JOURNEYS[lang];

  /** From wherever the page is, through the header's Courses link, to a course found by search. */
  async function findCourse(page: Page, search: string, { beginner = false } = {}) {
    await tabTo(
      page,
      page
        .getByRole('navigation', { name: say('nav.main') })
        .first()
        .getByRole('link', { name: say('nav.courses') }),
    );
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/${lang}/courses`));
    await waitForIslands(page);
    await tabTo(page, page.getByLabel(say('catalogue.searchLabel')));
    await page.keyboard.type(search);
    if (beginner) {
      // A select changes with the arrow keys: the first level after "all" is the beginners'.
      const difficulty = page.getByLabel(say('catalogue.difficulty'));
      await tabTo(page, difficulty);
      await page.keyboard.press('ArrowDown');
      await expect(difficulty).toHaveValue('beginner');
    }
    await tabTo(page, page.getByRole('button', { name: say('catalogue.apply') }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(beginner ? /search=.*difficulty=beginner|difficulty=beginner.*search=/ : /search=/);
    const course = page.getByRole('article').filter({ hasText: search }).first().getByRole('heading').getByRole('link');
    await tabTo(page, course);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/${lang}/course/`));
  }

  test(`with the keyboard alone in ${lang}: filter the catalogue, enrol free, buy with the demo provider, download, sign out`, async ({
    page,
    newBuyer,
  }) => {
    await newBuyer('keys', lang);
    await page.goto(`/${lang}/`);

    await findCourse(page, journey.free, { beginner: true });
    await tabTo(page, page.getByRole('link', { name: say('course.getForFree') }));
    await page.keyboard.press('Enter');
    await waitForIslands(page);
    await tabTo(page, page.getByRole('checkbox', { name: say('checkout.acceptTerms') }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: say('checkout.enrolFree') }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/checkout\/success\?session_id=free_/);
    const download = page.getByRole('link', { name: say('success.download') });
    await tabTo(page, download);
    await expectPdf(page, () => page.keyboard.press('Enter'));

    await findCourse(page, journey.paid);
    await tabTo(page, page.getByRole('link', { name: say('course.buyNow') }));
    await page.keyboard.press('Enter');
    await waitForIslands(page);
    for (const box of await page.getByRole('checkbox').all()) {
      await tabTo(page, box);
      await page.keyboard.press('Space');
      await expect(box).toBeChecked();
    }
    await tabTo(page, page.getByRole('button', { name: say('checkout.proceedToPayment') }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/checkout\/demo\/demo_/);
    await tabTo(page, page.getByRole('button', { name: new RegExp(lang === 'en' ? '^Pay ' : ' öde$') }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/checkout\/success\?session_id=demo_/);
    await tabTo(page, page.getByRole('link', { name: say('success.download') }));
    await expectPdf(page, () => page.keyboard.press('Enter'));

    // The account menu: open with Enter, reach Logout with Tab.
    const menu = page.locator('summary', { hasText: say('account.menu') }).first();
    await tabTo(page, menu, { back: true });
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('button', { name: say('account.logout') }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('link', { name: say('nav.login') }).first()).toBeVisible();
  });
}

for (const lang of FULL_SWEEP ? LANGS : (['tr'] as const)) {
  const say = (key: Key) => (lang === 'en' ? en : tr)[key];

  test(`with the keyboard alone in ${lang}: an admin creates a category and publishes a post`, async ({
    page,
    signIn,
    cleanup,
  }) => {
    const name = `Keys ${Date.now().toString(36)}`;
    const slug = name.toLowerCase().replace(' ', '-');
    cleanup.category(slug);
    cleanup.post(name);
    await signIn(DEMO.admin);
    await page.goto(`/${lang}/admin/categories`);
    await waitForIslands(page);

    await tabTo(page, page.getByRole('button', { name: say('admin.categories.new'), exact: true }));
    await page.keyboard.press('Enter');
    const category = page.getByRole('dialog');
    await tabTo(page, category.getByLabel(say('admin.categories.fieldName.en')));
    await page.keyboard.type(name);
    await tabTo(page, category.getByLabel(say('admin.categories.fieldName.tr')));
    await page.keyboard.type(`${name} tr`);
    await tabTo(page, category.getByRole('button', { name: say('admin.categories.createCategory') }));
    await page.keyboard.press('Enter');
    await expect(category).toBeHidden();
    await expect(page.getByRole('heading', { name })).toBeVisible();

    const menu = page.getByRole('navigation', { name: say('admin.menu') });
    await tabTo(page, menu.getByRole('link', { name: say('admin.nav.blogs') }), { back: true });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/${lang}/admin/blogs`));
    await waitForIslands(page);
    await tabTo(page, page.getByRole('button', { name: say('admin.blogs.new'), exact: true }));
    await page.keyboard.press('Enter');
    const editor = page.getByRole('dialog');
    const fields: [Key, string][] = [
      ['admin.blogs.fieldTitle', name],
      ['admin.blogs.fieldExcerpt', 'Written with the keyboard alone.'],
      ['admin.blogs.fieldContent', '## Keys\n\nEvery step of this post was taken with the keyboard.'],
      ['admin.blogs.fieldAuthor', 'Keyboard Editor'],
      ['admin.blogs.fieldCover', '/images/blog/calm-in-five-minutes.svg'],
      ['admin.blogs.fieldCoverAlt', lang === 'en' ? 'decorative' : 'dekoratif'],
    ];
    for (const [label, value] of fields) {
      await tabTo(page, editor.getByRole('textbox', { name: say(label), exact: true }));
      await page.keyboard.type(value);
    }
    const publish = editor.getByRole('checkbox', { name: say('admin.blogs.publishImmediately') });
    await tabTo(page, publish);
    await page.keyboard.press('Space');
    await expect(publish).toBeChecked();
    await tabTo(page, editor.getByRole('button', { name: say('admin.blogs.createPost') }));
    await page.keyboard.press('Enter');
    await expect(editor).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
    // Escape closes a dialog and gives the focus back to what opened it.
    await tabTo(page, page.getByRole('button', { name: say('admin.blogs.new'), exact: true }), { back: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByRole('button', { name: say('admin.blogs.new'), exact: true })).toBeFocused();
  });
}
