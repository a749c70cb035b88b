import { apiSignUp, DEMO, expect, openMail, test, waitForIslands } from './fixtures.ts';
import { makePdf, makePng } from '../support/files.ts';
import { readPdf } from '../support/pdf-reader.ts';

/** What each language's screens and files say (the locale files' words, as a person reads them). */
const WORDS = {
  en: {
    search: 'Search courses',
    edit: (title: string) => `Edit ${title}`,
    dialog: 'Edit course',
    pdf: 'PDF file',
    notify: 'E-mail buyers about this new version',
    save: 'Save',
    saved: 'Course updated successfully!',
    notified: '1 buyer will be e-mailed about the new version.',
    noticesSent: '1 buyer notified',
    updated: /^Updated \w+ \d{1,2}, \d{4}$/,
    subject: (title: string) => `Updated: ${title}`,
    download: (title: string) => `Download: ${title}`,
    licence: (email: string) => `Licensed to Test Buyer ${email} · order MC-`,
  },
  tr: {
    search: 'Kurslarda ara',
    edit: (title: string) => `Düzenle ${title}`,
    dialog: 'Kursu düzenle',
    pdf: 'PDF dosyası',
    notify: 'Alıcılara bu yeni sürümü e-postayla bildir',
    save: 'Kaydet',
    saved: 'Kurs başarıyla güncellendi!',
    notified: '1 alıcıya yeni sürüm e-postayla bildirilecek.',
    noticesSent: '1 alıcıya bildirim gönderildi',
    updated: /^\d{1,2} \p{L}+ \d{4} tarihinde güncellendi$/u,
    subject: (title: string) => `Güncellendi: ${title}`,
    download: (title: string) => `İndir: ${title}`,
    licence: (email: string) => `Lisans sahibi: Test Buyer ${email} · sipariş MC-`,
  },
} as const;

for (const lang of ['en', 'tr'] as const) {
  const words = WORDS[lang];

  test(`${lang}: the admin replaces a course PDF and notifies buyers; the buyer sees "Updated", gets the mail and downloads the new file stamped for them`, async ({
    page,
    browser,
    baseURL,
    signIn,
  }) => {
    const title = `${lang === 'tr' ? 'Güncel Bütçe' : 'Living Budget'} ${Date.now()}`;
    await signIn(DEMO.admin);
    const created = await page.request.post(`/api/admin/courses?lang=${lang}`, {
      headers: { origin: baseURL! },
      multipart: {
        title,
        category: 'business',
        description: 'A course that gets a second edition.',
        instructorName: 'Ada Teacher',
        instructorBio: 'Writes budgets.',
        price: '0',
        payWhatYouWant: 'false',
        minimumPrice: '0',
        currency: 'USD',
        language: lang,
        // Not for beginners and not featured: other suites' expectations stay true while this runs.
        difficulty: 'advanced',
        tags: '',
        isFeatured: 'false',
        isActive: 'true',
        stampPdfs: 'true',
        durationMinutes: '20',
        coverImageUrl: '',
        cover: { name: 'cover.png', mimeType: 'image/png', buffer: makePng() },
        pdf: { name: 'course.pdf', mimeType: 'application/pdf', buffer: await makePdf('First edition') },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const courseId = ((await created.json()) as { course: { id: string } }).course.id;

    // A buyer in another browser enrols in the free course.
    const buyerContext = await browser.newContext({ baseURL: baseURL! });
    const buyer = await buyerContext.newPage();
    const account = await apiSignUp(buyer.request, baseURL!, { name: `updates-${lang}`, language: lang });
    const enrolled = await buyer.request.post('/api/checkout', {
      headers: { origin: baseURL! },
      data: {
        acceptTerms: true,
        waiveWithdrawal: true,
        courseId,
        email: account.email,
        fullName: account.fullName,
        language: lang,
      },
    });
    expect(enrolled.status(), await enrolled.text()).toBe(200);
    // Off sale at once: the catalogue counts other suites assert (running in parallel) stay true; a
    // buyer keeps a course taken off sale, and its updates.
    const offSale = await page.request.patch(`/api/admin/courses/${courseId}/status`, {
      headers: { origin: baseURL! },
      data: { isActive: false },
    });
    expect(offSale.status()).toBe(200);
    await buyer.goto(`/${lang}/dashboard/courses`);
    const item = buyer.getByRole('listitem').filter({ hasText: title });
    await expect(item).toBeVisible();
    await expect(item.getByText(words.updated)).toHaveCount(0);

    // The admin replaces the PDF with "notify buyers" ticked.
    await page.goto(`/${lang}/admin/courses`);
    await waitForIslands(page);
    await page.getByLabel(words.search).fill(title);
    const row = page.getByRole('row').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: words.edit(title) }).click();
    const dialog = page.getByRole('dialog', { name: words.dialog });
    await expect(dialog.getByLabel(words.notify)).toHaveCount(0);
    await dialog
      .getByLabel(words.pdf)
      .setInputFiles({ name: 'second.pdf', mimeType: 'application/pdf', buffer: await makePdf('Second edition') });
    await dialog.getByLabel(words.notify).check();
    await dialog.getByRole('button', { name: words.save, exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: words.saved })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: words.notified })).toBeVisible();
    // The save did not wait for the mail: the server's background worker sends it, and the course's row
    // says "Notifying 1 buyer…" until then, then "1 buyer notified" (refreshed by itself).
    await expect(row.getByRole('status')).toHaveText(words.noticesSent, { timeout: 15_000 });

    // My Courses says the course changed since the buyer's download.
    await buyer.reload();
    await expect(item.getByText(words.updated)).toBeVisible();

    // The notice reaches the buyer's mailbox, in their language, and leads to My Courses.
    const mail = await openMail(buyer, account.email, words.subject(title), lang);
    await expect(mail).toContainText(title);
    await expect(mail.getByRole('link', { name: new RegExp(`/${lang}/dashboard/courses$`) })).toBeVisible();

    // The buyer downloads the new edition, stamped for them on its page; "Updated" goes away.
    await buyer.goto(`/${lang}/dashboard/courses`);
    const [download] = await Promise.all([
      buyer.waitForEvent('download'),
      item.getByRole('link', { name: words.download(title) }).click(),
    ]);
    const read = await readPdf(Buffer.concat(await (await download.createReadStream()).toArray()));
    expect(read.pages).toHaveLength(1);
    expect(read.pages[0]!.text).toContain('Second edition');
    expect(read.pages[0]!.text).toContain(words.licence(account.email));
    await expect(item.getByText(words.updated)).toHaveCount(0);
    await buyer.reload();
    await expect(item).toBeVisible();
    await expect(item.getByText(words.updated)).toHaveCount(0);
    await buyerContext.close();
  });
}
