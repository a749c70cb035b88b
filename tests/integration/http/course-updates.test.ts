import { stat } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requestUpdateNotices,
  sendUpdateNoticeBatch,
  sendWaitingUpdateNotices,
} from '../../../functions/courses/course-update-notices.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { orderReference } from '../../../functions/orders/orders.ts';
import { createDb, db } from '../../../functions/db/database.ts';
import { stampedKey } from '../../../functions/downloads/stamped-copies.ts';
import { previewKey } from '../../../functions/courses/course-previews.ts';
import { storageRoot } from '../../../functions/storage/storage.ts';
import { formatDate } from '../../../src/lib/dates.ts';
import type { AdminCoursePage, AdminCourseView } from '../../../src/lib/admin/courses.schema.ts';
import { courseFormFields, makeCourse, makePurchase } from '../../support/factories.ts';
import { makePdf, makePng, makeSignedPdf } from '../../support/files.ts';
import { makeFlateBombPdf, makeHugeArrayPdf, makeRepeatedPagePdf } from '../../support/hostile-pdfs.ts';
import { readPdf } from '../../support/pdf-reader.ts';
import { plainText, startSmtpServer } from '../../support/smtp.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // This server's background worker stays idle during these tests (its first tick is a minute away):
  // the tests run the worker themselves, to see the state between a save and the mails.
  server = await startTestServer({ SMTP_URL: smtp.url, JOBS_INTERVAL_MS: '60000' });
  admin = await signedInBrowser(server, { role: 'admin', email: 'updates-admin@example.com' });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

const FIELDS = courseFormFields();

function courseForm(fields: Partial<Record<string, string>>, pdf?: Uint8Array, cover = true): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...FIELDS, ...fields })) if (value !== undefined) form.set(name, value);
  if (pdf) form.set('pdf', new File([Buffer.from(pdf)], 'course.pdf', { type: 'application/pdf' }));
  if (cover) form.set('cover', new File([Buffer.from(makePng())], 'cover.png', { type: 'image/png' }));
  return form;
}

async function createCourse(title: string, pdf: Uint8Array): Promise<string> {
  const response = await admin.request('/api/admin/courses?lang=en', { method: 'POST', body: courseForm({ title }, pdf) });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { course: { id: string } }).course.id;
}

async function saveCourse(id: string, fields: Partial<Record<string, string>>, pdf?: Uint8Array) {
  const course = await db()
    .selectFrom('courses')
    .select(['title', 'cover_image_url'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const response = await admin.request(`/api/admin/courses/${id}?lang=tr`, {
    method: 'PUT',
    body: courseForm({ title: course.title, coverImageUrl: course.cover_image_url!, ...fields }, pdf, false),
  });
  return {
    status: response.status,
    body: (await response.json()) as { notified?: number; error?: { fields?: Record<string, string> } },
  };
}

/** A buyer with an account and a completed purchase of the course, signed in. */
async function buyer(courseId: string, name: string, options: { language?: 'en' | 'tr'; completedAt?: Date } = {}) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now().toString(36)}@example.com`;
  const { id } = await ensureUser(db(), {
    email,
    password: 'correct horse 42',
    fullName: name,
    role: 'user',
    language: options.language ?? 'en',
  });
  const purchase = await makePurchase(courseId, {
    user_id: id,
    email,
    full_name: name,
    language: options.language ?? 'en',
    completed_at: options.completedAt ?? new Date(Date.now() - 60_000),
  });
  const browser = await signedInBrowser(server, { role: 'user', email, fullName: name });
  return { id, email, name, purchaseId: purchase.id, browser };
}

async function download(browser: Browser, purchaseId: string): Promise<Buffer> {
  const signed = await browser.request(`/api/account/purchases/${purchaseId}/download`);
  expect(signed.status).toBe(302);
  const file = await browser.request(signed.headers.get('location')!);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toBe('application/pdf');
  return Buffer.from(await file.arrayBuffer());
}

const courseRow = (id: string) => db().selectFrom('courses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const privateFile = (key: string) => path.join(storageRoot(), 'private', key);
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
const updateMails = (courseTitle: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['recipient', 'subject', 'language'])
    .where('kind', '=', 'course-update')
    .where('subject', 'like', `%${courseTitle}%`)
    .orderBy('recipient')
    .execute();

function lockedPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ ownerPassword: 'seller-secret', permissions: { printing: 'highResolution' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.text('Locked course');
  doc.end();
  return done;
}

describe('stamped downloads', () => {
  it('stamp the first download of a version, keep that copy, and serve the original when the seller turns stamping off', async () => {
    const original = await makePdf('Stamped edition');
    const id = await createCourse('Stamp cache course', original);
    const reader = await buyer(id, 'Ayşe Yılmaz', { language: 'tr' });

    const first = await download(reader.browser, reader.purchaseId);
    const read = await readPdf(first);
    expect(read.pages[0]!.text).toContain('Stamped edition');
    expect(read.pages[0]!.text).toContain(
      `Lisans sahibi: Ayşe Yılmaz ${reader.email} · sipariş ${orderReference(reader.purchaseId)}`,
    );
    expect(read.info).toMatchObject({ Custom: { OrderReference: orderReference(reader.purchaseId) } });

    // The copy is kept in private storage; a repeat download reads it (the same bytes, the file untouched).
    const { pdf_path } = await courseRow(id);
    const cached = privateFile(stampedKey(reader.purchaseId, pdf_path!));
    expect((await readFile(cached)).equals(first)).toBe(true);
    const written = (await stat(cached)).mtimeMs;
    expect((await download(reader.browser, reader.purchaseId)).equals(first)).toBe(true);
    expect((await stat(cached)).mtimeMs).toBe(written);

    expect((await saveCourse(id, { stampPdfs: 'false' })).status).toBe(200);
    expect((await courseRow(id)).stamp_pdfs).toBe(false);
    expect((await download(reader.browser, reader.purchaseId)).equals(original)).toBe(true);
  });

  it('are erased with the account of the buyer they name', async () => {
    const id = await createCourse('Erased copy course', await makePdf('Private edition'));
    const reader = await buyer(id, 'Leaving Reader');
    await download(reader.browser, reader.purchaseId);
    const copy = privateFile(stampedKey(reader.purchaseId, (await courseRow(id)).pdf_path!));
    expect(await exists(copy)).toBe(true);
    const deleted = await reader.browser.postJson('/api/account/delete', { password: 'correct horse 42', confirm: true });
    expect(deleted.status).toBe(200);
    expect(await exists(copy)).toBe(false);
  });

  it('refuses at upload a PDF locked with an owner password, or one that cannot be read, and stores nothing', async () => {
    const before = await db()
      .selectFrom('courses')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [pdf, message] of [
      [await lockedPdf(), 'admin.courses.errors.pdfEncrypted'],
      [Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), 'admin.courses.errors.pdfUnreadable'],
    ] as const) {
      const response = await admin.request('/api/admin/courses?lang=en', { method: 'POST', body: courseForm({}, pdf) });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { message, fields: { pdf: message } } });
    }
    const after = await db()
      .selectFrom('courses')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a digitally signed PDF while stamping is on, takes it with stamping off, and keeps stamping off for it', async () => {
    const signed = await makeSignedPdf('Signed edition');
    const refused = await admin.request('/api/admin/courses?lang=tr', { method: 'POST', body: courseForm({}, signed) });
    expect(refused.status).toBe(400);
    const message = 'admin.courses.errors.pdfSigned';
    expect(await refused.json()).toMatchObject({ error: { fields: { pdf: message } } });

    const response = await admin.request('/api/admin/courses?lang=en', {
      method: 'POST',
      body: courseForm({ title: 'Signed edition', stampPdfs: 'false' }, signed),
    });
    expect(response.status).toBe(201);
    const id = ((await response.json()) as { course: { id: string } }).course.id;
    // Turning stamping on later meets the stored file's signature; the course stays as it was.
    expect(await saveCourse(id, { stampPdfs: 'true', description: 'Changed' })).toMatchObject({
      status: 400,
      body: { error: { fields: { pdf: message } } },
    });
    expect(
      await db().selectFrom('courses').select(['stamp_pdfs', 'description']).where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual({
      stamp_pdfs: false,
      description: FIELDS.description,
    });
    // The buyer gets the signed file byte for byte.
    const reader = await buyer(id, 'Signature Reader');
    expect(Buffer.compare(await download(reader.browser, reader.purchaseId), Buffer.from(signed))).toBe(0);
  });
});

/**
 * PDFs built to stall whoever parses them. `npm test` sends one; `npm run test:sweep` (HOSTILE_PDFS=all)
 * sends each, and `npm run bench` (tests/bench/stamp.ts) times them against the health probe.
 */
const HOSTILE_PDFS = [
  {
    name: 'a page tree listing one page 40,000 times',
    make: () => Promise.resolve(makeRepeatedPagePdf()),
    message: 'pdfPageTree',
  },
  ...(process.env.HOSTILE_PDFS === 'all'
    ? [
        { name: 'an object stream that inflates to 256 MB', make: () => makeFlateBombPdf(), message: 'pdfInflates' },
        { name: 'an array of 20 million numbers', make: () => Promise.resolve(makeHugeArrayPdf()), message: 'pdfTooHeavy' },
      ]
    : []),
];

describe('hostile PDFs', () => {
  it.each(HOSTILE_PDFS)('are refused at upload with a message that says why: $name', async ({ make, message }) => {
    const response = await admin.request('/api/admin/courses?lang=tr', {
      method: 'POST',
      body: courseForm({ title: 'Hostile edition' }, await make()),
    });
    expect(response.status).toBe(400);
    const key = `admin.courses.errors.${message}`;
    expect(await response.json()).toMatchObject({ error: { message: key, fields: { pdf: key } } });
    // The server kept answering while the worker parsed it, and it is still well.
    expect((await server.fetch('/api/health')).status).toBe(200);
  });
});

/** The signed file URL of a buyer's purchase, as the dashboard's download button gives it. */
async function fileUrl(browser: Browser, purchaseId: string): Promise<string> {
  const signed = await browser.request(`/api/account/purchases/${purchaseId}/download`);
  expect(signed.status).toBe(302);
  return signed.headers.get('location')!;
}

const downloadCount = async (purchaseId: string) =>
  (await db().selectFrom('purchases').select('download_count').where('id', '=', purchaseId).executeTakeFirstOrThrow())
    .download_count;

describe('downloads over HTTP', () => {
  it('answer HEAD without stamping or counting, and resume from a Range with the same bytes, counted once', async () => {
    const id = await createCourse('Resumable course', await makePdf('Resumable edition'));
    const reader = await buyer(id, 'Resuming Reader');
    const url = await fileUrl(reader.browser, reader.purchaseId);
    const copy = privateFile(stampedKey(reader.purchaseId, (await courseRow(id)).pdf_path!));

    const head = await reader.browser.request(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(head.headers.get('content-type')).toBe('application/pdf');
    expect(await exists(copy)).toBe(false);
    expect(await downloadCount(reader.purchaseId)).toBe(0);

    const whole = Buffer.from(await (await reader.browser.request(url)).arrayBuffer());
    expect(await downloadCount(reader.purchaseId)).toBe(1);
    const etag = head.headers.get('etag')!;
    const again = await reader.browser.request(url, { method: 'HEAD' });
    expect(again.headers.get('content-length')).toBe(String(whole.length));
    expect(again.headers.get('etag')).toBe(etag);

    // Interrupted after 1,000 bytes, resumed: the parts are the file, and the resume is not a new download.
    const first = await reader.browser.request(url, { headers: { range: 'bytes=0-999' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-999/${whole.length}`);
    const head1000 = Buffer.from(await first.arrayBuffer());
    const rest = await reader.browser.request(url, { headers: { range: 'bytes=1000-', 'if-range': etag } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-length')).toBe(String(whole.length - 1000));
    expect(Buffer.concat([head1000, Buffer.from(await rest.arrayBuffer())]).equals(whole)).toBe(true);
    expect(await downloadCount(reader.purchaseId)).toBe(2);

    const past = await reader.browser.request(url, { headers: { range: `bytes=${whole.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.length}`);

    // The original, served as it is when stamping is off, resumes the same way.
    expect((await saveCourse(id, { stampPdfs: 'false' })).status).toBe(200);
    const original = Buffer.from(await readFile(privateFile((await courseRow(id)).pdf_path!)));
    const tail = await reader.browser.request(url, { headers: { range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(original.subarray(-100))).toBe(true);
  });
});

/** A course file of `pages` pages, each saying its edition and number. */
function pagedPdf(edition: string, pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A6', autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (let page = 1; page <= pages; page++) doc.addPage().fontSize(12).text(`${edition} page ${page}`);
  doc.end();
  return done;
}

describe('free previews', () => {
  it('are made for anyone on the first download, kept per file version, and made again from a new version', async () => {
    const id = await createCourse('Previewed course', await pagedPdf('First edition', 5));
    expect((await saveCourse(id, { previewPages: '2-3' })).status).toBe(200);
    const url = `${server.url}/api/courses/${id}/preview`;
    const firstKey = previewKey((await courseRow(id)).pdf_path!, { firstPage: 2, lastPage: 3 });

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await exists(privateFile(firstKey))).toBe(false);
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-disposition')).toContain('filename="Previewed course (Preview).pdf"');
    const firstPreview = await readPdf(Buffer.from(await first.arrayBuffer()));
    expect(firstPreview.pages).toHaveLength(2);
    for (const [index, page] of firstPreview.pages.entries()) {
      expect(page.text).toContain(`First edition page ${index + 2}`);
      expect(page.text).toContain('Preview');
    }
    expect(await exists(privateFile(firstKey))).toBe(true);
    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);

    expect((await saveCourse(id, { previewPages: '2-3' }, await pagedPdf('Second edition', 4))).status).toBe(200);
    const secondResponse = await fetch(url);
    expect(secondResponse.status).toBe(200);
    const second = await readPdf(Buffer.from(await secondResponse.arrayBuffer()));
    expect(second.pages.map((page) => page.text.includes('Second edition page 2'))).toEqual([true, false]);
    expect(second.pages[1]!.text).toContain('Second edition page 3');
    expect(await exists(privateFile(firstKey))).toBe(false);

    // No pages, no preview: nothing to download and nothing kept.
    const secondKey = previewKey((await courseRow(id)).pdf_path!, { firstPage: 2, lastPage: 3 });
    expect(await exists(privateFile(secondKey))).toBe(true);
    expect((await saveCourse(id, { previewPages: '' })).status).toBe(200);
    expect((await fetch(url)).status).toBe(404);
    expect(await exists(privateFile(secondKey))).toBe(false);
  });
});

describe('course updates', () => {
  it('make a new version, show "Updated" until the buyer downloads it, and e-mail each buyer once in their language', async () => {
    const title = `Edition course ${Date.now()}`;
    const firstEdition = await makePdf('First edition');
    const id = await createCourse(title, firstEdition);
    const english = await buyer(id, 'Sam Carter', { language: 'en' });
    const turkish = await buyer(id, 'Şule Işıklı', { language: 'tr' });
    const optedOut = await buyer(id, 'Quiet Reader', { language: 'en' });
    await db().updateTable('users').set({ course_update_emails: false }).where('id', '=', optedOut.id).execute();
    // A guest purchase whose address the account has not proved stays out of it.
    const unproved = await buyer(id, 'Unproved Guest');
    await db().updateTable('users').set({ email_verified: false }).where('id', '=', unproved.id).execute();
    await db().updateTable('purchases').set({ guest: true }).where('id', '=', unproved.purchaseId).execute();

    const v1 = await download(english.browser, english.purchaseId);
    const v1Path = (await courseRow(id)).pdf_path!;
    expect(await exists(privateFile(stampedKey(english.purchaseId, v1Path)))).toBe(true);

    // The same bytes again are no new version, and there is nothing to tell.
    const same = await saveCourse(id, { notifyBuyers: 'true' }, firstEdition);
    expect(same).toMatchObject({ status: 200, body: { notified: 0, course: { pdfVersion: 1, pdfUpdatedAt: null } } });
    expect((await courseRow(id)).pdf_path).toBe(v1Path);

    const secondEdition = await makePdf('Second edition');
    const saved = await saveCourse(id, { notifyBuyers: 'true' }, secondEdition);
    // The save records whom to tell and returns: no mail exists yet, the admin sees them being sent.
    expect(saved).toMatchObject({
      status: 200,
      body: { notified: 2, course: { pdfVersion: 2, updateNotices: { sending: true, buyers: 2 } } },
    });
    expect(await updateMails(title)).toEqual([]);
    expect(await adminView(title)).toMatchObject({ updateNotices: { sending: true, buyers: 2 } });
    expect(await sendWaitingUpdateNotices(db())).toEqual({ batches: 1, queued: 2 });
    expect(await adminView(title)).toMatchObject({ updateNotices: { sending: false, buyers: 2 } });
    const course = await courseRow(id);
    expect(course).toMatchObject({ pdf_version: 2 });
    expect(course.pdf_path).not.toBe(v1Path);
    expect(course.pdf_updated_at).not.toBeNull();
    // The old file and the buyers' copies of it are gone once the new one is committed.
    expect(await exists(privateFile(v1Path))).toBe(false);
    expect(await exists(privateFile(stampedKey(english.purchaseId, v1Path)))).toBe(false);

    // One mail each, in the account's language, through the outbox.
    expect(await updateMails(title)).toEqual(
      [
        { recipient: english.email, subject: `Updated: ${title}`, language: 'en' },
        { recipient: turkish.email, subject: `Güncellendi: ${title}`, language: 'tr' },
      ].sort((a, b) => a.recipient.localeCompare(b.recipient)),
    );
    const englishMail = plainText((await smtp.waitFor((mail) => mail.to.includes(english.email))).raw);
    expect(englishMail).toContain(`published a new version of “${title}” on ${formatDate(course.pdf_updated_at!, 'en')}`);
    expect(englishMail).toContain('/en/dashboard/courses');
    const turkishMail = plainText((await smtp.waitFor((mail) => mail.to.includes(turkish.email))).raw);
    expect(turkishMail).toContain(`“${title}” kursunun yeni bir sürümünü ${formatDate(course.pdf_updated_at!, 'tr')} tarihinde`);
    expect(turkishMail).toContain('/tr/dashboard/courses');
    const notices = await db()
      .selectFrom('course_update_notices')
      .select(['user_id', 'mailed'])
      .where('course_id', '=', id)
      .execute();
    expect(notices).toHaveLength(3);
    expect(notices.find((notice) => notice.user_id === optedOut.id)?.mailed).toBe(false);

    // Saving again, with or without the same file, mails nobody twice.
    expect((await saveCourse(id, { notifyBuyers: 'true' })).body.notified).toBe(0);
    expect((await saveCourse(id, { notifyBuyers: 'true' }, secondEdition)).body.notified).toBe(0);
    expect(await sendWaitingUpdateNotices(db())).toEqual({ batches: 0, queued: 0 });
    expect(await updateMails(title)).toHaveLength(2);
    // A buyer who bought the new version is no news to.
    const later = await buyer(id, 'Late Buyer', { completedAt: new Date() });
    expect((await saveCourse(id, { notifyBuyers: 'true' })).body.notified).toBe(0);
    expect(await adminView(title)).toMatchObject({ updateNotices: { sending: false, buyers: 2 } });

    // My Courses and the dashboard say so, in each language, until the buyer downloads the new file.
    const updatedOn = (lang: 'en' | 'tr') =>
      lang === 'en'
        ? `Updated ${formatDate(course.pdf_updated_at!, 'en')}`
        : `${formatDate(course.pdf_updated_at!, 'tr')} tarihinde güncellendi`;
    for (const path of ['/en/dashboard/courses', '/en/dashboard'])
      expect(await (await english.browser.request(path)).text(), path).toContain(updatedOn('en'));
    expect(await (await turkish.browser.request('/tr/dashboard/courses')).text()).toContain(updatedOn('tr'));
    expect(await (await later.browser.request('/en/dashboard/courses')).text()).not.toContain('Updated ');

    const v2 = await readPdf(await download(english.browser, english.purchaseId));
    expect(v2.pages[0]!.text).toContain('Second edition');
    expect(v2.pages[0]!.text).toContain(`Licensed to Sam Carter ${english.email} · order ${orderReference(english.purchaseId)}`);
    expect(v1.equals(await download(english.browser, english.purchaseId))).toBe(false);
    expect(await (await english.browser.request('/en/dashboard/courses')).text()).not.toContain(updatedOn('en'));
    expect(await (await turkish.browser.request('/tr/dashboard/courses')).text()).toContain(updatedOn('tr'));
  });

  it('are sent by the worker in batches: a worker stopped after one batch is completed by another instance, and two workers at once mail each buyer once', async () => {
    const course = await makeCourse({ title: 'Batched notices', pdf_version: 3, pdf_updated_at: new Date() });
    const readers = await makeBuyers(course.id, 'batch', 7);
    await db().updateTable('users').set({ course_update_emails: false }).where('id', '=', readers[6]!).execute();
    const request = () =>
      db()
        .transaction()
        .execute((trx) => requestUpdateNotices(trx, course.id));
    expect(await request()).toBe(6);

    // One batch, then the worker "dies"; another instance (its own connections) takes the run over.
    const first = await sendUpdateNoticeBatch(db(), 2);
    expect(first).toMatchObject({ courseId: course.id, pdfVersion: 3, considered: 2, finished: false });
    const other = createDb(process.env.DATABASE_URL!, 2);
    try {
      const rest = await sendWaitingUpdateNotices(other, { batchSize: 2 });
      expect(first!.queued + rest.queued).toBe(6);
      expect(await sendWaitingUpdateNotices(db(), { batchSize: 2 })).toEqual({ batches: 0, queued: 0 });
      expect(await batchMails()).toEqual(expectedMails(6));
      expect(await noticesOf(course.id, 3)).toBe(7);

      // A new version: two workers at once share its run, and nobody is mailed twice.
      await db().updateTable('courses').set({ pdf_version: 4, pdf_updated_at: new Date() }).where('id', '=', course.id).execute();
      expect(await request()).toBe(6);
      const [one, two] = await Promise.all([
        sendWaitingUpdateNotices(db(), { batchSize: 2 }),
        sendWaitingUpdateNotices(other, { batchSize: 2 }),
      ]);
      expect(one.queued + two.queued).toBe(6);
      expect(await noticesOf(course.id, 4)).toBe(7);
      expect(await batchMails()).toEqual([...expectedMails(6), ...expectedMails(6)].sort(byRecipient));
      // Asking again once everyone was told starts nothing.
      expect(await request()).toBe(0);
      expect(await sendWaitingUpdateNotices(db())).toEqual({ batches: 0, queued: 0 });

      // A buyer whose mail cannot be queued (an address the outbox refuses) holds up nobody else.
      const [broken] = await makeBuyers(course.id, 'broken', 1);
      await db()
        .updateTable('users')
        .set({ email: `${'x'.repeat(320)}@example.com` })
        .where('id', '=', broken!)
        .execute();
      await db().updateTable('courses').set({ pdf_version: 5, pdf_updated_at: new Date() }).where('id', '=', course.id).execute();
      expect(await request()).toBe(7);
      expect(await sendWaitingUpdateNotices(db(), { batchSize: 2 })).toMatchObject({ queued: 6 });
      const notices = await db()
        .selectFrom('course_update_notices')
        .select(['user_id', 'mailed'])
        .where('course_id', '=', course.id)
        .where('pdf_version', '=', 5)
        .execute();
      expect(notices).toHaveLength(8);
      expect(notices.find((notice) => notice.user_id === broken)?.mailed).toBe(false);
    } finally {
      await other.destroy();
    }
  });

  it('are sent by the servers themselves: two instances on one database mail each buyer exactly once', async () => {
    const course = await makeCourse({ title: 'Two servers notices', pdf_version: 2, pdf_updated_at: new Date() });
    const count = 40;
    await makeBuyers(course.id, 'twin', count);
    expect(
      await db()
        .transaction()
        .execute((trx) => requestUpdateNotices(trx, course.id)),
    ).toBe(count);
    const instances = await Promise.all([
      startTestServer({ SMTP_URL: smtp.url, JOBS_INTERVAL_MS: '100' }),
      startTestServer({ SMTP_URL: smtp.url, JOBS_INTERVAL_MS: '100' }),
    ]);
    try {
      const deadline = Date.now() + 30_000;
      const delivered = () => smtp.messages.filter((mail) => mail.to.some((to) => to.startsWith('twin-')));
      while (delivered().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      // A moment more, for any duplicate to show up.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const recipients = delivered().flatMap((mail) => mail.to);
      expect(recipients).toHaveLength(count);
      expect(new Set(recipients).size).toBe(count);
      const run = await db()
        .selectFrom('course_update_runs')
        .select('finished_at')
        .where('course_id', '=', course.id)
        .executeTakeFirstOrThrow();
      expect(run.finished_at).not.toBeNull();
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
    // Forty accounts, two servers and their delivery: beyond the default 30 s on a busy machine.
  }, 90_000);
});

/** `count` buyers with an account and a purchase of the course a minute ago, every second one Turkish. */
async function makeBuyers(courseId: string, prefix: string, count: number): Promise<string[]> {
  const ids = [];
  for (let n = 0; n < count; n++) {
    const email = `${prefix}-${n}@example.com`;
    const { id } = await ensureUser(db(), {
      email,
      password: 'correct horse 42',
      fullName: `${prefix} ${n}`,
      role: 'user',
      language: n % 2 ? 'tr' : 'en',
    });
    await makePurchase(courseId, { user_id: id, email, completed_at: new Date(Date.now() - 60_000) });
    ids.push(id);
  }
  return ids;
}

const byRecipient = (a: { recipient: string }, b: { recipient: string }) => a.recipient.localeCompare(b.recipient);
const expectedMails = (count: number) =>
  Array.from({ length: count }, (_, n) => ({ recipient: `batch-${n}@example.com`, language: n % 2 ? 'tr' : 'en' }));
const batchMails = () =>
  db()
    .selectFrom('mail_outbox')
    .select(['recipient', 'language'])
    .where('kind', '=', 'course-update')
    .where('recipient', 'like', 'batch-%')
    .orderBy('recipient')
    .execute();
async function noticesOf(courseId: string, version: number): Promise<number> {
  const { n } = await db()
    .selectFrom('course_update_notices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('course_id', '=', courseId)
    .where('pdf_version', '=', version)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The course as the admin's list shows it (found by its title). */
async function adminView(title: string): Promise<AdminCourseView | undefined> {
  const response = await admin.request(`/api/admin/courses?lang=en&search=${encodeURIComponent(title)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as AdminCoursePage).courses.find((course) => course.title === title);
}
