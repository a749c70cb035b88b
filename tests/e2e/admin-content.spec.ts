import { DEMO, expect, test, unique, type Page, waitForIslands } from './fixtures.ts';

/** Signs the admin in through the API and opens an admin page, hydrated. */
async function openAsAdmin(page: Page, signIn: (account: typeof DEMO.admin) => Promise<void>, path: string) {
  await signIn(DEMO.admin);
  await page.goto(path);
  await waitForIslands(page);
}

/** Deletes a post from the admin table, through the confirm dialog. */
async function deletePost(page: Page, title: string, lang: 'en' | 'tr') {
  await page.getByRole('button', { name: `${lang === 'tr' ? 'Sil' : 'Delete'} ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: lang === 'tr' ? 'Kalıcı olarak silinsin mi?' : 'Delete permanently?' });
  await expect(confirm).toContainText(lang === 'tr' ? 'geri alınamaz' : 'cannot be undone');
  await confirm.getByRole('button', { name: lang === 'tr' ? 'Sil' : 'Delete', exact: true }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: lang === 'tr' ? 'Blog yazısı başarıyla silindi!' : 'Blog post deleted successfully!' }),
  ).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(title) })).toHaveCount(0);
}

test('the admin publishes a Turkish post with a transliterated slug, readable at once in a new tab', async ({
  page,
  context,
  signIn,
  cleanup,
}) => {
  const suffix = unique();
  const title = `Çalışırken Işığı Doğru Kullanın ${suffix}`;
  const slug = `calisirken-isigi-dogru-kullanin-${suffix}`;
  cleanup.post(slug);
  await openAsAdmin(page, signIn, '/tr/admin/blogs');
  await expect(page.getByRole('heading', { level: 1, name: 'Blog yazıları' })).toBeVisible();

  await page.getByRole('button', { name: 'Yeni yazı' }).click();
  const dialog = page.getByRole('dialog', { name: 'Yeni blog yazısı' });
  await dialog.getByRole('button', { name: 'Yazıyı oluştur' }).click();
  await expect(dialog.getByText('Başlık zorunludur')).toBeVisible();
  await expect(dialog.getByText("Kapak görseli URL'si zorunludur")).toBeVisible();
  await expect(dialog.getByLabel(/^Başlık/)).toBeFocused();

  await dialog.getByLabel(/^Başlık/).fill(title);
  await expect(dialog.getByText(`Adres: /tr/blog/${slug}`)).toBeVisible();
  await dialog.getByLabel('Özet').fill('Masa başında gözlerinizi yormadan çalışmanın yolları.');
  await dialog.getByLabel('İçerik (Markdown)').fill('## Doğal ışık\n\nMasanızı pencereye **dik** yerleştirin.');
  const preview = dialog.getByRole('region', { name: 'Önizleme' });
  await expect(preview.getByRole('heading', { name: 'Doğal ışık' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('dik');
  await dialog.getByLabel('Yazar adı').fill('Editör Ayşe');
  await dialog.getByLabel("Kapak görseli URL'si").fill('/images/blog/budget-basics.svg');
  await dialog.getByLabel('Kapak açıklaması (alt metin)').fill('Pencere kenarında bir çalışma masası');
  await dialog.getByLabel('Etiketler').fill('verimlilik, sağlık');
  await dialog.getByLabel('Meta açıklaması').fill('Işığı doğru kullanın.');
  await expect(dialog.getByText('21 / 160 karakter')).toBeVisible();
  await expect(dialog.getByLabel('Dil')).toHaveValue('tr');
  await expect(dialog.getByLabel('Hemen yayımla')).not.toBeChecked();
  await dialog.getByLabel('Hemen yayımla').check();
  await dialog.getByRole('button', { name: 'Yazıyı oluştur' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'Blog yazısı başarıyla oluşturuldu!' })).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText(`/${slug}`);
  await expect(row.getByRole('switch', { name: `Yayında: ${title}` })).toHaveAttribute('aria-checked', 'true');

  const link = row.getByRole('link', { name: new RegExp(`Görüntüle ${title}`) });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener');
  const [article] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(article).toHaveURL(new RegExp(`/tr/blog/${slug}$`));
  await expect(article.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(article.getByRole('heading', { name: 'Doğal ışık' })).toBeVisible();
  await article.close();

  // Back to a draft: the public page is gone at once.
  await row.getByRole('switch', { name: `Yayında: ${title}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Yazı başarıyla taslaklara alındı!' })).toBeVisible();
  await expect(row.getByRole('switch', { name: `Yayında: ${title}` })).toHaveAttribute('aria-checked', 'false');
  expect((await page.request.get(`/tr/blog/${slug}`)).status()).toBe(404);

  await deletePost(page, title, 'tr');
});

test('a post carrying script and event-handler payloads never runs them, in the preview or on the public page', async ({
  page,
  context,
  signIn,
  cleanup,
  expectConsoleErrors,
}) => {
  // The post's cover URL names a host this machine cannot resolve.
  expectConsoleErrors(/ERR_NAME_NOT_RESOLVED/);
  const suffix = unique();
  const title = `Sanitizer check ${suffix}`;
  cleanup.post(`sanitizer-check-${suffix}`);
  await openAsAdmin(page, signIn, '/en/admin/blogs');
  await page.getByRole('button', { name: 'New post' }).click();
  const dialog = page.getByRole('dialog', { name: 'New blog post' });
  await dialog.getByLabel(/^Title/).fill(title);
  await dialog.getByLabel('Excerpt').fill('Nothing in this post may run.');
  await dialog
    .getByLabel('Content (Markdown)')
    .fill('Safe text.\n\n<script>window.__xss = 1</script><img src=x alt="x" onerror="window.__xss = 2">');
  await dialog.getByLabel('Author name').fill('Security Reviewer');
  await dialog.getByLabel('Cover image URL').fill('https://images.example.com/cover.jpg');
  await dialog.getByLabel('Cover description (alt text)').fill('A padlock on a keyboard');
  await dialog.getByLabel('Language').selectOption('en');
  await expect(dialog.getByRole('region', { name: 'Preview' })).toContainText('Safe text.');
  await expect(dialog.getByTestId('blog-preview').locator('script, [onerror]')).toHaveCount(0);
  await dialog.getByLabel('Publish immediately').check();
  await dialog.getByRole('button', { name: 'Create post' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog post created successfully!' })).toBeVisible();
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();

  const row = page.getByRole('row', { name: new RegExp(title) });
  const [article] = await Promise.all([
    context.waitForEvent('page'),
    row.getByRole('link', { name: new RegExp(`View ${title}`) }).click(),
  ]);
  await expect(article.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(article.getByText('Safe text.')).toBeVisible();
  await article.waitForLoadState('load');
  expect(await article.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(article.locator('[onerror]')).toHaveCount(0);
  await expect(article.locator('.prose-page script')).toHaveCount(0);
  await article.close();

  await deletePost(page, title, 'en');
});

test('the admin creates a category, cannot delete one that courses use, and deletes the new one after confirming', async ({
  page,
  signIn,
  cleanup,
}) => {
  const suffix = unique();
  const name = `Pottery ${suffix}`;
  cleanup.category(`pottery-${suffix}`);
  await openAsAdmin(page, signIn, '/en/admin/categories');
  await expect(page.getByRole('heading', { level: 1, name: 'Categories' })).toBeVisible();
  const cards = page.getByRole('list', { name: 'Categories' }).getByRole('listitem');
  const existing = await cards.count();

  await page.getByRole('button', { name: 'New category' }).click();
  const dialog = page.getByRole('dialog', { name: 'New category' });
  await expect(dialog.getByLabel('Sort order')).toHaveValue(String(existing));
  await expect(dialog.getByLabel('Icon', { exact: true })).toHaveValue('BookOpen');
  await expect(dialog.getByRole('button', { name: 'Blue' })).toHaveAttribute('aria-pressed', 'true');
  await dialog.getByLabel('Name (English)').fill(name);
  await dialog.getByLabel('Name (Turkish)').fill(`Çömlekçilik ${suffix}`);
  await expect(dialog.getByText(`Slug to be used: pottery-${suffix}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Emerald' }).click();
  await expect(dialog.getByRole('button', { name: 'Emerald' })).toHaveAttribute('aria-pressed', 'true');
  await dialog.getByRole('button', { name: 'Create category' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Category created successfully!' })).toBeVisible();
  await expect(dialog).toBeHidden();

  const card = cards.filter({ has: page.getByRole('heading', { name }) });
  await expect(card).toContainText(`pottery-${suffix}`);
  await expect(card).toContainText('#10B981');
  await expect(card).toContainText(`Çömlekçilik ${suffix}`);

  // A category in use is refused with the reason, and stays.
  const technology = cards.filter({ has: page.getByRole('heading', { name: 'Technology', exact: true }) });
  await technology.getByRole('button', { name: 'Delete Technology' }).click();
  await page.getByRole('dialog', { name: 'Delete permanently?' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /Cannot complete operation due to data dependencies\. \d+ courses? uses? this category/ }),
  ).toBeVisible();
  await expect(technology).toHaveCount(1);

  await card.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete permanently?' });
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Category deleted successfully!' })).toBeVisible();
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name })).toHaveCount(0);
});
