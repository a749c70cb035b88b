import { apiSignUp, DEMO, expect, test, waitForIslands } from './fixtures.ts';
import { makePdf, makePng } from '../support/files.ts';
import { readPdf } from '../support/pdf-reader.ts';

test('the admin creates a Turkish course with its PDF, a buyer pays through the demo provider and downloads exactly that PDF', async ({
  page,
  browser,
  baseURL,
  signIn,
  expectConsoleErrors,
}) => {
  // The cover URL typed on the way names a host this machine cannot resolve.
  expectConsoleErrors(/ERR_NAME_NOT_RESOLVED/);
  const title = `Işıkla Çalışmak ${Date.now()}`;
  const pdf = await makePdf(`${title}: ders notları`);

  await signIn(DEMO.admin);
  await page.goto('/tr/admin/courses');
  await waitForIslands(page);
  await expect(page.getByRole('heading', { name: 'Kurslar', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Kurs ekle' }).click();

  const dialog = page.getByRole('dialog', { name: 'Kurs ekle' });
  await expect(dialog.getByLabel('Fiyat')).toHaveValue('0');
  await expect(dialog.getByLabel('Para birimi')).toHaveValue('USD');
  await expect(dialog.getByLabel('Kurs dili')).toHaveValue('en');
  await expect(dialog.getByLabel('Seviye')).toHaveValue('beginner');
  await expect(dialog.getByLabel('Aktif (katalogda gösterilir)')).toBeChecked();
  await expect(dialog.getByLabel('Öne çıkan kurs')).not.toBeChecked();

  await dialog.getByLabel('Başlık').fill(title);
  await dialog.getByLabel('Kategori').selectOption({ label: 'İş ve Finans' });
  await dialog.getByLabel('Açıklama').fill('Işık, gölge ve kompozisyonla ilk adımlar.');
  await dialog.getByLabel('Eğitmen adı').fill('Şule Işıklı');
  await dialog.getByLabel('Eğitmen biyografisi').fill('Yirmi yıllık fotoğrafçı.');
  await dialog.getByLabel('Süre (dakika)').fill('75');
  // Priced above the home page's limit and not for beginners: other suites' expectations stay true while this runs.
  await dialog.getByLabel('Fiyat').fill('19.90');
  await dialog.getByLabel('Para birimi').selectOption('TRY');
  await dialog.getByLabel('Kurs dili').selectOption('tr');
  await dialog.getByLabel('Seviye').selectOption('intermediate');
  await dialog.getByLabel('Etiketler').fill('fotoğraf, ışık, ');

  // A cloud-drive link is flagged in the preview; an uploaded image replaces it.
  await dialog.getByLabel("Ya da görselin URL'si").fill('https://drive.google.com/file/d/abc/view');
  await expect(dialog.getByText('Google Drive, Dropbox veya OneDrive bağlantıları')).toBeVisible();
  await dialog
    .getByLabel('Kapak görseli yükle')
    .setInputFiles({ name: 'kapak.png', mimeType: 'image/png', buffer: makePng(32, 18) });
  await expect(dialog.getByRole('img', { name: 'Kapak önizlemesi' })).toBeVisible();

  // A PNG passed off as a PDF is refused by the server; the form stays open with everything typed.
  await dialog.getByLabel('PDF dosyası').setInputFiles({ name: 'kurs.pdf', mimeType: 'application/pdf', buffer: makePng() });
  await dialog.getByRole('button', { name: 'Kaydet', exact: true }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Bu dosya geçerli bir PDF değil' }).first()).toBeVisible();
  await expect(dialog.getByLabel('Başlık')).toHaveValue(title);

  await dialog.getByLabel('PDF dosyası').setInputFiles({ name: 'kurs.pdf', mimeType: 'application/pdf', buffer: pdf });
  await dialog.getByRole('button', { name: 'Kaydet', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kurs başarıyla oluşturuldu!' })).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('İş ve Finans');
  await expect(row).toContainText('₺19,90');
  await expect(row.getByRole('switch', { name: `Aktif: ${title}` })).toHaveAttribute('aria-checked', 'true');

  // A buyer in another browser finds it in the Turkish catalogue, pays through the demo provider and downloads it.
  const buyerContext = await browser.newContext({ baseURL: baseURL! });
  const buyer = await buyerContext.newPage();
  const buyerAccount = await apiSignUp(buyer.request, baseURL!, { name: 'alici', language: 'tr' });
  await buyer.goto(`/tr/courses?search=${encodeURIComponent(title)}`);
  const card = buyer.getByRole('article').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.locator('img')).toHaveAttribute('src', /^\/media\/covers\/[0-9a-f-]{36}-[0-9a-f]{16}\.webp$/);
  await card.getByRole('heading').getByRole('link').click();
  await buyer.getByRole('link', { name: 'Hemen satın al' }).click();
  await waitForIslands(buyer);
  await buyer.getByRole('checkbox', { name: /Kullanım Koşulları'nı, Ön Bilgilendirme Formu'nu/ }).check();
  await buyer.getByRole('checkbox', { name: /Kursa hemen erişmek istiyorum/ }).check();
  await buyer.getByRole('button', { name: 'Ödemeye geç' }).click();
  await expect(buyer).toHaveURL(/\/tr\/checkout\/demo\/demo_/);
  await buyer.getByRole('button', { name: '₺19,90 öde' }).click();
  await expect(buyer).toHaveURL(/\/tr\/checkout\/success\?session_id=demo_/);

  await buyer.goto('/tr/dashboard/courses');
  const item = buyer.getByRole('listitem').filter({ hasText: title });
  const [download] = await Promise.all([
    buyer.waitForEvent('download'),
    item.getByRole('link', { name: `İndir: ${title}` }).click(),
  ]);
  // Exactly that PDF, stamped for the buyer on its page in the order's language.
  const read = await readPdf(Buffer.concat(await (await download.createReadStream()).toArray()));
  expect(read.pages).toHaveLength(1);
  // (The fixture's text is drawn in PDF's built-in Helvetica, which has no ı or ş: compare it as a reader reads it.)
  expect(read.pages[0]!.text).toContain((await readPdf(pdf)).pages[0]!.text.trim());
  expect(read.pages[0]!.text).toContain(`Lisans sahibi: Test Buyer ${buyerAccount.email} · sipariş MC-`);
  await buyerContext.close();

  // Bought courses cannot be deleted: the admin is offered to deactivate it instead.
  await page.reload();
  await waitForIslands(page);
  await page.getByRole('button', { name: `Sil ${title}` }).click();
  await page.getByRole('dialog', { name: 'Kalıcı olarak silinsin mi?' }).getByRole('button', { name: 'Sil' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Kurs silinemedi' })).toBeVisible();
  await page.getByRole('button', { name: 'Bunun yerine devre dışı bırak' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kurs başarıyla devre dışı bırakıldı!' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: title }).getByRole('switch')).toHaveAttribute('aria-checked', 'false');
  await page.goto(`/tr/courses?search=${encodeURIComponent(title)}`);
  await expect(page.getByRole('article').filter({ hasText: title })).toHaveCount(0);
});

test('the admin searches, edits, deactivates and deletes a course, with the spec’s toasts', async ({
  page,
  baseURL,
  signIn,
  expectConsoleErrors,
}) => {
  // The course's cover URL names a host this machine cannot resolve.
  expectConsoleErrors(/ERR_NAME_NOT_RESOLVED/);
  const title = `Pazarlık Temelleri ${Date.now()}`;
  await signIn(DEMO.admin);
  const created = await page.request.post('/api/admin/courses?lang=en', {
    // The shop refuses writes without its own Origin (CSRF); a browser always sends it.
    headers: { origin: baseURL! },
    multipart: {
      title,
      category: 'technology',
      description: 'Sakin kalarak daha fazlasını isteyin.',
      instructorName: 'Sami Lale',
      instructorBio: 'Koç.',
      price: '30',
      payWhatYouWant: 'false',
      minimumPrice: '0',
      currency: 'TRY',
      language: 'tr',
      difficulty: 'advanced',
      tags: '',
      isFeatured: 'false',
      isActive: 'true',
      stampPdfs: 'true',
      durationMinutes: '20',
      coverImageUrl: 'https://images.example.com/negotiation.jpg',
      pdf: { name: 'course.pdf', mimeType: 'application/pdf', buffer: await makePdf(title) },
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto('/en/admin/courses');
  await waitForIslands(page);
  await page.getByLabel('Search courses').fill('zzz no such course zzz');
  await expect(page.getByText('No courses match your search.')).toBeVisible();
  // Turkish-aware: İ, I, ı and i are one letter to the search.
  await page.getByLabel('Search courses').fill(title.toLocaleUpperCase('tr'));
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await expect(dialog.getByLabel('Title')).toHaveValue(title);
  await expect(dialog.getByText('A PDF is stored. Choose a file only to replace it.')).toBeVisible();
  await dialog.getByLabel('Price').fill('-3');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByText('Enter a price of at least 0 in steps of 0.01 (at most 100,000)')).toBeVisible();
  await dialog.getByLabel('Price').fill('25');
  await dialog.getByLabel('Currency').selectOption('EUR');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Course updated successfully!' })).toBeVisible();
  await expect(row).toContainText('€25.00');

  const toggle = row.getByRole('switch', { name: `Active: ${title}` });
  await toggle.click();
  await expect(page.getByRole('status').filter({ hasText: 'Course deactivated successfully!' })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('status').filter({ hasText: 'Course activated successfully!' })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  await row.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete permanently?' });
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Course deleted successfully!' })).toBeVisible();
  await expect(page.getByText('No courses match your search.')).toBeVisible();
});
