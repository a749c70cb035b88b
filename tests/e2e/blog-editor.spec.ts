import sharp from 'sharp';
import { DEMO, expect, test, unique, type Page, waitForIslands } from './fixtures.ts';

/**
 * Editors own the whole blog: the shipped Markdown articles are posts in the admin like any other,
 * publish dates schedule posts that appear by themselves, covers are uploaded, drafts survive an
 * ended session. (The server's scheduler runs every 500 ms here: playwright.config.ts.)
 */

async function openBlogAdmin(page: Page, signIn: (account: typeof DEMO.admin) => Promise<void>, lang: 'en' | 'tr') {
  await signIn(DEMO.admin);
  await page.goto(`/${lang}/admin/blogs`);
  await waitForIslands(page);
}

/** The row of a post in the admin table, found through the search box. */
async function findRow(page: Page, search: string, label: string) {
  await page.getByRole('searchbox', { name: label }).fill(search);
  await page.getByRole('searchbox', { name: label }).press('Enter');
  const row = page.getByRole('row').filter({ hasText: `/${search}` });
  await expect(row).toHaveCount(1);
  return row;
}

test('an editor changes a shipped Markdown article in the admin, and readers see the change', async ({ page, signIn }) => {
  const marker = `Edited in the admin ${unique()}.`;
  await openBlogAdmin(page, signIn, 'en');
  const row = await findRow(page, 'behavioural-interview-star-method', 'Search posts');
  await row.getByRole('button', { name: /^Edit / }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit blog post' });
  await expect(dialog.getByLabel('Excerpt')).not.toHaveValue('');
  await dialog.getByLabel('Excerpt').fill(marker);
  await expect(dialog.getByTestId('blog-word-count')).toContainText(/\d+ words · \d+ min read/);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post updated successfully!' })).toBeVisible();
  // The file now says something else than the post: the admin says so, and the file never wins.
  await expect(row).toContainText('File differs');

  await page.goto('/en/blog/behavioural-interview-star-method');
  await expect(page.getByText(marker)).toBeVisible();
  await page.goto('/en/blog');
  await expect(page.getByText(marker)).toBeVisible();

  // The editor offers the file's version back.
  await page.goto('/en/admin/blogs');
  await waitForIslands(page);
  const again = await findRow(page, 'behavioural-interview-star-method', 'Search posts');
  await again.getByRole('button', { name: /^Edit / }).click();
  const editor = page.getByRole('dialog', { name: 'Edit blog post' });
  await expect(editor.getByText('Edited here; the file differs.')).toBeVisible();
  await editor.getByRole('button', { name: "Take the file's version" }).click();
  await expect(page.getByRole('status').filter({ hasText: "The post now has its file's version." })).toBeVisible();
  await expect(editor.getByLabel('Excerpt')).not.toHaveValue(marker);
  await expect(editor.getByText('Edited here; the file differs.')).toHaveCount(0);
});

test('an editor unpublishes a shipped article and publishes it again, keeping its date', async ({ page, signIn }) => {
  // An English one: the blog tests read the four Turkish articles meanwhile.
  const slug = 'first-monthly-budget';
  await openBlogAdmin(page, signIn, 'en');
  const row = await findRow(page, slug, 'Search posts');
  const date = await row.locator('time').getAttribute('datetime');
  const toggle = row.getByRole('switch', { name: /^Published: / });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  expect((await page.request.get(`/en/blog/${slug}`)).status()).toBe(404);
  expect(await (await page.request.get('/en/rss.xml')).text()).not.toContain(`/en/blog/${slug}`);
  expect(await (await page.request.get('/sitemap.xml')).text()).not.toContain(`/en/blog/${slug}`);

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  expect((await page.request.get(`/en/blog/${slug}`)).status()).toBe(200);
  await expect(row.locator('time')).toHaveAttribute('datetime', date!);
});

test('an editor uploads a cover and schedules a post a few seconds ahead: it appears on the blog by itself', async ({
  page,
  signIn,
  context,
  cleanup,
}) => {
  test.setTimeout(60_000);
  const suffix = unique();
  const title = `Zamanlanmış Yazı ${suffix}`;
  const slug = `zamanlanmis-yazi-${suffix}`;
  cleanup.post(slug);
  await openBlogAdmin(page, signIn, 'tr');
  await page.getByRole('button', { name: 'Yeni yazı' }).click();
  const dialog = page.getByRole('dialog', { name: 'Yeni blog yazısı' });
  await dialog.getByLabel(/^Başlık/).fill(title);
  await dialog.getByLabel('Özet').fill('Kendiliğinden yayımlanan bir yazı.');
  await dialog.getByLabel('İçerik (Markdown)').fill('Bu yazı, zamanı geldiğinde kendiliğinden görünür.');
  await dialog.getByLabel('Yazar adı').fill('Editör Ayşe');

  // A wide photo: cut to 1200 × 630 and stored in three widths.
  const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
  await dialog.getByLabel('Kapak görseli yükleyin').setInputFiles({ name: 'kapak.png', mimeType: 'image/png', buffer: photo });
  await expect(dialog.getByLabel("Kapak görseli URL'si")).toHaveValue(/\/media\/blog\/covers\/[0-9a-f]{16}-1200x630\.webp$/);
  await expect(dialog.getByRole('img', { name: 'Seçilen kapak' })).toBeVisible();
  await dialog.getByLabel('Kapak açıklaması (alt metin)').fill('Mavi bir kapak');

  // A file that only claims to be an image is refused by its bytes.
  await dialog
    .getByLabel('Kapak görseli yükleyin')
    .setInputFiles({ name: 'sahte.png', mimeType: 'image/png', buffer: Buffer.from('<svg onload=alert(1)>') });
  await expect(dialog.getByText('Bu dosya bir PNG, JPEG veya WebP görseli değil.')).toBeVisible();

  // The preview is the public article's own page, with the unsaved values.
  const [preview] = await Promise.all([
    context.waitForEvent('page'),
    dialog.getByRole('button', { name: /Yayımlanmış hâliyle önizle/ }).click(),
  ]);
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(preview.getByRole('note')).toContainText('Önizleme');
  await expect(preview.getByText('1 dk okuma')).toBeVisible();
  await expect(preview.locator('article img').first()).toHaveAttribute('srcset', /480w/);
  await preview.close();

  await dialog.getByLabel('Hemen yayımla').check();
  const at = new Date(Date.now() + 12_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  await dialog.getByLabel('Yayın tarihi ve saati').fill(local);
  await expect(dialog.getByText(/Zamanlandı: okurlar yazıyı/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Yazıyı oluştur' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog yazısı başarıyla oluşturuldu!' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText('için zamanlandı');

  // Not yet public; the cached blog page is read now, so only the scheduler's purge can show it in time.
  expect((await page.request.get(`/tr/blog/${slug}`)).status()).toBe(404);
  await page.goto('/tr/blog');
  await expect(page.getByRole('heading', { name: title })).toHaveCount(0);
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByRole('heading', { name: title }).count();
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toBe(1);
  expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 1000);
  expect(await (await page.request.get('/tr/rss.xml')).text()).toContain(`/tr/blog/${slug}`);

  await page.getByRole('heading', { name: title }).getByRole('link').click();
  const cover = page.locator('article img').first();
  await expect(cover).toHaveAttribute('width', '1200');
  await expect(cover).toHaveAttribute('height', '630');
  await expect(cover).toHaveAttribute('srcset', /-480\.webp 480w, .*-800\.webp 800w, .*-1200x630\.webp 1200w/);
  await expect(cover).toHaveAttribute('alt', 'Mavi bir kapak');
  await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
});

test('a draft keeps its text through an ended session: the editor asks to sign in again and restores it', async ({
  page,
  context,
  signIn,
  cleanup,
}) => {
  const suffix = unique();
  const title = `Long draft ${suffix}`;
  cleanup.post(`long-draft-${suffix}`);
  await openBlogAdmin(page, signIn, 'en');
  await page.getByRole('button', { name: 'New post' }).click();
  let dialog = page.getByRole('dialog', { name: 'New blog post' });
  await dialog.getByLabel(/^Title/).fill(title);
  await dialog.getByLabel('Excerpt').fill('A draft written over a long afternoon.');
  await dialog.getByLabel('Content (Markdown)').fill('First paragraph.');
  await dialog.getByLabel('Author name').fill('Patient Writer');
  await dialog.getByLabel('Cover image URL').fill('/images/blog/budget-basics.svg');
  await dialog.getByLabel('Cover description (alt text)').fill('decorative');
  await dialog.getByRole('button', { name: 'Create post' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post created successfully!' })).toBeVisible();

  const row = page.getByRole('row', { name: new RegExp(title) });
  await row.getByRole('button', { name: /^Edit / }).click();
  dialog = page.getByRole('dialog', { name: 'Edit blog post' });
  const longText = `First paragraph.\n\n${'A sentence written with care. '.repeat(40)}`;
  await dialog.getByLabel('Content (Markdown)').fill(longText);
  // A draft saves itself.
  await expect(dialog.getByText(/Draft saved automatically at/)).toBeVisible();
  await expect(dialog.getByTestId('blog-word-count')).toContainText('202 words · 1 min read');

  // The session ends (signed out elsewhere, expired): the next change cannot be saved, and nothing is lost.
  await context.clearCookies();
  await dialog.getByLabel('Content (Markdown)').fill(`${longText}\n\nThe last paragraph.`);
  await expect(dialog.getByRole('alert')).toContainText('Your session has ended.');
  await expect(dialog.getByRole('link', { name: /Sign in again/ })).toHaveAttribute('href', '/en/login');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByLabel('Content (Markdown)')).toHaveValue(/The last paragraph\.$/);

  // Even a closed tab loses nothing: signed in again, the editor brings the text back.
  await signIn(DEMO.admin);
  await page.goto('/en/admin/blogs');
  await waitForIslands(page);
  await page
    .getByRole('row', { name: new RegExp(title) })
    .getByRole('button', { name: /^Edit / })
    .click();
  dialog = page.getByRole('dialog', { name: 'Edit blog post' });
  await expect(dialog.getByText(/Restored the text you had not saved/)).toBeVisible();
  await expect(dialog.getByLabel('Content (Markdown)')).toHaveValue(/The last paragraph\.$/);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post updated successfully!' })).toBeVisible();
});
