import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { storageRoot } from '../../../functions/storage/storage.ts';
import { MAX_COVER_BYTES, MAX_PDF_BYTES } from '../../../src/lib/admin/courses.schema.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { courseFormFields, makeCategory, makePurchase } from '../../support/factories.ts';
import sharp from 'sharp';
import { PDF_HTML_POLYGLOT, SVG_WITH_SCRIPT, makeJpegWithGps, makePdf, makePng, makePngBomb } from '../../support/files.ts';
import en from '../../../src/i18n/locales/en.json' with { type: 'json' };
import tr from '../../../src/i18n/locales/tr.json' with { type: 'json' };

let server: TestServer;
let admin: Browser;
let buyer: Browser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInBrowser(server, {
    email: 'admin-courses@example.com',
    role: 'admin',
    password: 'correct horse battery 1',
    fullName: 'Test Person',
  });
  buyer = await signedInBrowser(server, {
    email: 'buyer-courses@example.com',
    role: 'user',
    password: 'correct horse battery 1',
    fullName: 'Test Person',
  });
});
afterAll(() => server.stop());

const FIELDS = courseFormFields({
  title: 'Yatırıma Giriş',
  description: 'Birikimlerinizi adım adım yatırıma dönüştürün.',
  instructorName: 'Ayşe Yılmaz',
  instructorBio: 'On yıllık portföy yöneticisi.',
  durationMinutes: '45',
});
type Fields = Partial<Record<keyof typeof FIELDS, string | undefined>>;

interface Upload {
  bytes: Uint8Array;
  name: string;
  type: string;
}
const pdfUpload = async (text = 'Course', name = 'course.pdf'): Promise<Upload> => ({
  bytes: await makePdf(text),
  name,
  type: 'application/pdf',
});
const pngUpload = (colour: [number, number, number] = [79, 70, 229]): Upload => ({
  bytes: makePng(16, 9, colour),
  name: 'cover.png',
  type: 'image/png',
});

function courseForm(
  fields: Fields = {},
  { pdf, cover, id }: { pdf?: Upload | undefined; cover?: Upload | undefined; id?: string } = {},
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...FIELDS, ...fields })) if (value !== undefined) form.set(name, value);
  if (id) form.set('id', id);
  if (pdf) form.set('pdf', new File([Buffer.from(pdf.bytes)], pdf.name, { type: pdf.type }));
  if (cover) form.set('cover', new File([Buffer.from(cover.bytes)], cover.name, { type: cover.type }));
  return form;
}

const send = (browser: Browser, method: string, url: string, body?: FormData) =>
  browser.request(url, { method, ...(body ? { body } : {}) });
const create = async (fields: Fields = {}, files: Parameters<typeof courseForm>[1] = {}) => {
  const response = await send(
    admin,
    'POST',
    '/api/admin/courses?lang=tr',
    courseForm(fields, { pdf: await pdfUpload(), cover: pngUpload(), ...files }),
  );
  return { status: response.status, body: await response.json() };
};

/** Every stored file, as `public/…` and `private/…` paths. */
async function storedFiles(): Promise<string[]> {
  const root = storageRoot();
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}
const courseCount = async () =>
  Number(
    (
      await db()
        .selectFrom('courses')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const courseRow = (id: string) => db().selectFrom('courses').selectAll().where('id', '=', id).executeTakeFirst();
const page = async (url: string) => {
  const response = await server.fetch(url);
  return { status: response.status, html: await response.text() };
};

describe('creating a course', () => {
  it('stores the PDF privately and the cover publicly, and the course reaches the catalogue at once', async () => {
    const pdf = await pdfUpload('Türkçe kurs içeriği');
    const cover = pngUpload();
    const { status, body } = await create(
      {
        title: 'IŞIK ve Gölge Fotoğrafçılığı',
        language: 'tr',
        price: '12.50',
        currency: 'TRY',
        difficulty: 'advanced',
        tags: ' ışık, ,fotoğraf ,ışık ',
        isFeatured: 'true',
        durationMinutes: '90',
      },
      { pdf, cover },
    );
    expect(status).toBe(201);
    const course = body.course;
    expect(course).toMatchObject({
      title: 'IŞIK ve Gölge Fotoğrafçılığı',
      category: 'business',
      categoryName: 'İş ve Finans',
      language: 'tr',
      priceMinor: 1250,
      currency: 'TRY',
      difficulty: 'advanced',
      tags: ['ışık', 'fotoğraf'],
      isFeatured: true,
      isActive: true,
      durationMinutes: 90,
      hasPdf: true,
      purchaseCount: 0,
    });

    const row = (await courseRow(course.id))!;
    expect(row.pdf_path).toMatch(new RegExp(`^courses/${course.id}-[0-9a-f]{16}\\.pdf$`));
    expect(row.cover_image_url).toMatch(new RegExp(`^/media/covers/${course.id}-[0-9a-f]{16}\\.webp$`));
    expect(course.coverImageUrl).toBe(row.cover_image_url);
    // Where the PDF lives is never sent to a browser.
    expect(JSON.stringify(body)).not.toContain(row.pdf_path!);
    expect(JSON.stringify(body)).not.toMatch(/pdf_?path/i);
    expect((await readFile(path.join(storageRoot(), 'private', row.pdf_path!))).equals(Buffer.from(pdf.bytes))).toBe(true);
    expect(await storedFiles()).not.toContain(`public/${row.pdf_path}`);

    const image = await server.fetch(row.cover_image_url!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    // Re-encoded, as blog images are: the same picture, never the uploaded bytes.
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({
      format: 'webp',
      width: 16,
      height: 9,
    });

    // Turkish-aware search, in the storefront JSON and in the admin list alike.
    const catalogue = await (await server.fetch('/api/courses?lang=tr&search=%C4%B1%C5%9F%C4%B1k')).json();
    expect(catalogue.courses.map((c: { id: string }) => c.id)).toContain(course.id);
    const list = await (await admin.request(`/api/admin/courses?lang=tr&search=${encodeURIComponent('ışık ve GÖLGE')}`)).json();
    expect(list.courses.map((c: { id: string }) => c.id)).toEqual([course.id]);
    expect(JSON.stringify(list)).not.toContain(row.pdf_path!);
    expect((await page(`/tr/course/${course.id}`)).html).toContain('IŞIK ve Gölge Fotoğrafçılığı');
  });

  it('lists every language, newest first, with category, price, currency, state and purchase count', async () => {
    const english = await create({
      title: 'Newest English Course',
      language: 'en',
      price: '4.99',
      currency: 'EUR',
      isActive: 'false',
    });
    const list = await (await admin.request('/api/admin/courses?lang=en')).json();
    expect(list.total).toBe(await courseCount());
    expect(list.courses[0]).toMatchObject({
      id: english.body.course.id,
      categoryName: 'Business',
      priceMinor: 499,
      currency: 'EUR',
      isActive: false,
    });
    expect(new Set(list.courses.map((c: { language: string }) => c.language))).toEqual(new Set(['en', 'tr']));
    const dates = list.courses.map((c: { createdAt: string }) => Date.parse(c.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    // Inactive courses stay out of the storefront.
    expect((await page(`/en/course/${english.body.course.id}`)).status).toBe(404);
  });

  it('is safe to retry: the same create twice makes one course and keeps one PDF', async () => {
    const id = randomUUID();
    const first = await create({ title: 'Retried create' }, { id });
    const second = await create({ title: 'Retried create' }, { id });
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('admin.errors.duplicate');
    expect(await db().selectFrom('courses').select('id').where('title', '=', 'Retried create').execute()).toHaveLength(1);
    expect((await storedFiles()).filter((file) => file.includes(id) && file.endsWith('.pdf'))).toHaveLength(1);
  });
});

describe('validation', () => {
  const invalid: [string, Fields, string, string][] = [
    ['empty title', { title: '  ' }, 'title', 'admin.courses.errors.titleRequired'],
    ['long title', { title: 'x'.repeat(201) }, 'title', 'validation.tooLong'],
    ['no category', { category: '' }, 'category', 'admin.courses.errors.categoryRequired'],
    ['unknown category', { category: 'no-such-category' }, 'category', 'admin.courses.errors.categoryInvalid'],
    ['malformed category', { category: 'Not A Slug' }, 'category', 'admin.courses.errors.categoryInvalid'],
    ['no description', { description: '' }, 'description', 'admin.courses.errors.descriptionRequired'],
    ['no instructor name', { instructorName: '' }, 'instructorName', 'admin.courses.errors.instructorNameRequired'],
    ['no instructor bio', { instructorBio: '' }, 'instructorBio', 'admin.courses.errors.instructorBioRequired'],
    ['negative price', { price: '-1' }, 'price', 'admin.courses.errors.priceInvalid'],
    ['price in steps finer than 0.01', { price: '1.234' }, 'price', 'admin.courses.errors.priceInvalid'],
    ['price that is not a number', { price: '1e3' }, 'price', 'admin.courses.errors.priceInvalid'],
    ['empty price', { price: '' }, 'price', 'admin.courses.errors.priceInvalid'],
    ['price over the ceiling', { price: '100000.01' }, 'price', 'admin.courses.errors.priceInvalid'],
    ['unknown currency', { currency: 'GBP' }, 'currency', 'admin.courses.errors.currencyInvalid'],
    ['unsupported language', { language: 'de' }, 'language', 'admin.courses.errors.languageInvalid'],
    ['unknown difficulty', { difficulty: 'expert' }, 'difficulty', 'admin.courses.errors.difficultyInvalid'],
    ['duration 0', { durationMinutes: '0' }, 'durationMinutes', 'admin.courses.errors.durationInvalid'],
    ['duration 601', { durationMinutes: '601' }, 'durationMinutes', 'admin.courses.errors.durationInvalid'],
    ['fractional duration', { durationMinutes: '1.5' }, 'durationMinutes', 'admin.courses.errors.durationInvalid'],
    ['javascript: cover URL', { coverImageUrl: 'javascript:alert(1)' }, 'coverImageUrl', 'admin.courses.errors.coverUrlInvalid'],
    ['cover URL that is not a URL', { coverImageUrl: 'not a url' }, 'coverImageUrl', 'admin.courses.errors.coverUrlInvalid'],
    [
      'too many tags',
      { tags: Array.from({ length: 21 }, (_, index) => `tag${index}`).join(',') },
      'tags',
      'admin.courses.errors.tagsInvalid',
    ],
    ['a flag that is not true/false', { isFeatured: 'yes' }, 'isFeatured', 'errors.badRequest'],
    ['a missing field', { title: undefined }, 'title', 'errors.badRequest'],
  ];

  it.each(invalid)('refuses %s with its message, storing and writing nothing', async (_name, fields, field, message) => {
    const [before, files] = [await courseCount(), await storedFiles()];
    const { status, body } = await create(fields);
    expect(status).toBe(400);
    expect(body.error.fields[field]).toBe(message);
    expect(await courseCount()).toBe(before);
    expect(await storedFiles()).toEqual(files);
  });

  it('puts new courses only in active categories', async () => {
    await makeCategory({ slug: 'retired-topic', is_active: false });
    const { status, body } = await create({ category: 'retired-topic' });
    expect(status).toBe(400);
    expect(body.error.fields).toEqual({ category: 'admin.courses.errors.categoryInvalid' });
  });

  it('needs a PDF and a cover (uploaded or by URL) to create a course', async () => {
    const before = await storedFiles();
    const response = await send(admin, 'POST', '/api/admin/courses', courseForm({}, {}));
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual({
      pdf: 'admin.courses.errors.pdfRequired',
      cover: 'admin.courses.errors.coverRequired',
    });
    const byUrl = await create(
      { title: 'Cover by URL', coverImageUrl: 'https://images.example.com/cover.jpg' },
      { cover: undefined },
    );
    expect(byUrl.status).toBe(201);
    expect(byUrl.body.course.coverImageUrl).toBe('https://images.example.com/cover.jpg');
    expect((await storedFiles()).filter((file) => !before.includes(file))).toEqual([
      expect.stringMatching(/^private\/courses\/.+\.pdf$/),
    ]);
  });

  it('answers malformed bodies with 4xx, never 500', async () => {
    const json = await admin.postJson('/api/admin/courses', FIELDS);
    expect(json.status).toBe(415);
    const garbage = await admin.request('/api/admin/courses', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: 'not multipart at all',
    });
    expect(garbage.status).toBe(400);
    const status = await admin.request(`/api/admin/courses/${randomUUID()}/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"isActive":"yes"}',
    });
    expect(status.status).toBe(400);
  });
});

describe('uploads are judged by their content', () => {
  const png = makePng();
  const bad: [string, { pdf?: Upload; cover?: Upload }, string, string][] = [
    [
      'a text file named .pdf',
      { pdf: { bytes: Buffer.from('Hello, I am not a PDF'), name: 'course.pdf', type: 'application/pdf' } },
      'pdf',
      'admin.courses.errors.pdfInvalid',
    ],
    [
      'a PNG renamed .pdf',
      { pdf: { bytes: png, name: 'course.pdf', type: 'application/pdf' } },
      'pdf',
      'admin.courses.errors.pdfInvalid',
    ],
    [
      'a PDF/HTML polyglot',
      { pdf: { bytes: PDF_HTML_POLYGLOT, name: 'course.pdf', type: 'application/pdf' } },
      'pdf',
      'admin.courses.errors.pdfPolyglot',
    ],
    [
      'an SVG with a script as the cover',
      { cover: { bytes: SVG_WITH_SCRIPT, name: 'cover.png', type: 'image/png' } },
      'cover',
      'admin.courses.errors.coverInvalid',
    ],
    [
      'a PDF as the cover',
      { cover: { bytes: PDF_HTML_POLYGLOT, name: 'cover.jpg', type: 'image/jpeg' } },
      'cover',
      'admin.courses.errors.coverInvalid',
    ],
    [
      'a cover over 5 MB',
      { cover: { bytes: Buffer.concat([png, Buffer.alloc(MAX_COVER_BYTES)]), name: 'cover.png', type: 'image/png' } },
      'cover',
      'admin.courses.errors.coverTooLarge',
    ],
  ];

  it.each(bad)('refuses %s with a 400 naming the problem, storing nothing', async (_name, files, field, message) => {
    const [before, stored] = [await courseCount(), await storedFiles()];
    const { status, body } = await create({ title: 'Refused upload' }, files);
    expect(status).toBe(400);
    expect(body.error.message).toBe(message);
    expect(body.error.fields[field]).toBe(message);
    expect(await courseCount()).toBe(before);
    expect(await storedFiles()).toEqual(stored);
  });

  it('refuses a 30000 × 30000 PNG decompression bomb as the cover before decoding it, in both languages', async () => {
    const bomb = await makePngBomb();
    expect(bomb.length).toBeLessThan(MAX_COVER_BYTES);
    const [before, stored] = [await courseCount(), await storedFiles()];
    const { status, body } = await create({ title: 'Bomb' }, { cover: { bytes: bomb, name: 'cover.png', type: 'image/png' } });
    expect(status).toBe(400);
    expect(body.error.fields.cover).toBe('admin.courses.errors.coverTooManyPixels');
    expect(en['admin.courses.errors.coverTooManyPixels']).toMatch(/too many pixels/);
    expect(tr['admin.courses.errors.coverTooManyPixels']).toMatch(/piksel sayısı çok fazla/);
    expect(await courseCount()).toBe(before);
    expect(await storedFiles()).toEqual(stored);
  });

  it("serves a phone photo's cover without its EXIF (camera, GPS location)", async () => {
    const photo = await makeJpegWithGps();
    // 0x8825, in either byte order: the EXIF tag that points to the GPS data.
    const exif = (await sharp(photo).metadata()).exif ?? Buffer.alloc(0);
    expect([Buffer.from([0x88, 0x25]), Buffer.from([0x25, 0x88])].some((tag) => exif.includes(tag))).toBe(true);
    expect(photo.includes(Buffer.from('Test Phone'))).toBe(true);
    const { status, body } = await create(
      { title: 'Phone photo' },
      { cover: { bytes: photo, name: 'IMG_0001.jpg', type: 'image/jpeg' } },
    );
    expect(status).toBe(201);
    const served = Buffer.from(await (await server.fetch(body.course.coverImageUrl)).arrayBuffer());
    const meta = await sharp(served).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();
    expect(served.includes(Buffer.from('Test Phone'))).toBe(false);
  });

  it('refuses a PDF over MAX_PDF_BYTES (50 MB), storing nothing', async () => {
    const big = Buffer.alloc(MAX_PDF_BYTES + 1, 0x20);
    big.write('%PDF-1.7\n', 0);
    big.write('%%EOF\n', big.length - 6);
    const [before, stored] = [await courseCount(), await storedFiles()];
    const { status, body } = await create({}, { pdf: { bytes: big, name: 'big.pdf', type: 'application/pdf' } });
    expect(status).toBe(400);
    expect(body.error.fields.pdf).toBe('admin.courses.errors.pdfTooLarge');
    expect(await courseCount()).toBe(before);
    expect(await storedFiles()).toEqual(stored);
  });

  it('leaves an existing course and its files untouched when an edit brings a bad file', async () => {
    const { body } = await create({ title: 'Untouched by a bad edit' });
    const before = (await courseRow(body.course.id))!;
    const stored = await storedFiles();
    const response = await send(
      admin,
      'PUT',
      `/api/admin/courses/${body.course.id}`,
      courseForm(
        { title: 'Changed?', coverImageUrl: before.cover_image_url! },
        { pdf: { bytes: png, name: 'x.pdf', type: 'application/pdf' } },
      ),
    );
    expect(response.status).toBe(400);
    expect(await courseRow(body.course.id)).toEqual(before);
    expect(await storedFiles()).toEqual(stored);
  });
});

describe('editing, toggling and deleting', () => {
  it('shows an edit on the storefront at once, and replacing files deletes the old ones after the commit', async () => {
    const { body } = await create({ title: 'Before the edit', language: 'en' });
    const id = body.course.id;
    const before = (await courseRow(id))!;
    expect((await page(`/en/course/${id}`)).html).toContain('Before the edit');

    const newPdf = await pdfUpload('Second edition');
    const newCover = pngUpload([220, 38, 38]);
    const response = await send(
      admin,
      'PUT',
      `/api/admin/courses/${id}?lang=en`,
      courseForm(
        { title: 'After the edit', language: 'en', price: '9.99', coverImageUrl: before.cover_image_url! },
        { pdf: newPdf, cover: newCover },
      ),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).course).toMatchObject({ title: 'After the edit', priceMinor: 999, hasPdf: true });
    await expect.poll(async () => (await page(`/en/course/${id}`)).html, { timeout: 2000 }).toContain('After the edit');

    const after = (await courseRow(id))!;
    expect(after.pdf_path).not.toBe(before.pdf_path);
    expect(after.cover_image_url).not.toBe(before.cover_image_url);
    const files = await storedFiles();
    expect(files).toContain(`private/${after.pdf_path}`);
    expect(files).not.toContain(`private/${before.pdf_path}`);
    expect(files).not.toContain(`public/${before.cover_image_url!.replace('/media/', '')}`);
    expect((await readFile(path.join(storageRoot(), 'private', after.pdf_path!))).equals(Buffer.from(newPdf.bytes))).toBe(true);

    // Without files, an edit keeps the stored PDF and cover.
    const plain = await send(
      admin,
      'PUT',
      `/api/admin/courses/${id}`,
      courseForm({ title: 'Third title', coverImageUrl: after.cover_image_url! }),
    );
    expect(plain.status).toBe(200);
    expect(await courseRow(id)).toMatchObject({
      title: 'Third title',
      pdf_path: after.pdf_path,
      cover_image_url: after.cover_image_url,
    });
    expect((await send(admin, 'PUT', `/api/admin/courses/${randomUUID()}`, courseForm())).status).toBe(404);
  });

  it('keeps a course in any catalogue language (French, Spanish) through an edit', async () => {
    const { status, body } = await create({ title: 'Cours de cuisine', language: 'fr' });
    expect(status).toBe(201);
    expect(body.course.language).toBe('fr');
    const cover = { coverImageUrl: body.course.coverImageUrl };
    const edited = await send(
      admin,
      'PUT',
      `/api/admin/courses/${body.course.id}?lang=tr`,
      courseForm({ ...cover, title: 'Cours de cuisine 2', language: 'fr' }),
    );
    expect(edited.status).toBe(200);
    expect((await edited.json()).course).toMatchObject({ title: 'Cours de cuisine 2', language: 'fr' });
    const spanish = await send(
      admin,
      'PUT',
      `/api/admin/courses/${body.course.id}?lang=tr`,
      courseForm({ ...cover, language: 'es' }),
    );
    expect((await spanish.json()).course.language).toBe('es');
  });

  it('activates and deactivates a course, and the storefront follows', async () => {
    const { body } = await create({ title: 'Switch me', language: 'en' });
    const id = body.course.id;
    const patch = (isActive: unknown, target = id) =>
      admin.request(`/api/admin/courses/${target}/status`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ isActive }),
      });
    expect((await page(`/en/course/${id}`)).status).toBe(200);
    const off = await patch(false);
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ course: { id, isActive: false } });
    await expect.poll(async () => (await page(`/en/course/${id}`)).status, { timeout: 2000 }).toBe(404);
    expect((await patch(true)).status).toBe(200);
    await expect.poll(async () => (await page(`/en/course/${id}`)).status, { timeout: 2000 }).toBe(200);
    expect((await patch(true, randomUUID())).status).toBe(404);
    expect((await patch(true, 'not-a-uuid')).status).toBe(404);
  });

  it('deletes a course nobody bought, with its files', async () => {
    const { body } = await create({ title: 'Short-lived', language: 'en' });
    const row = (await courseRow(body.course.id))!;
    const response = await admin.request(`/api/admin/courses/${body.course.id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(await courseRow(body.course.id)).toBeUndefined();
    const files = await storedFiles();
    expect(files).not.toContain(`private/${row.pdf_path}`);
    expect(files).not.toContain(`public/${row.cover_image_url!.replace('/media/', '')}`);
    await expect.poll(async () => (await page(`/en/course/${body.course.id}`)).status, { timeout: 2000 }).toBe(404);
    expect((await admin.request(`/api/admin/courses/${body.course.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses to delete a course with purchases (409) and keeps it and its PDF', async () => {
    const { body } = await create({ title: 'Bought already' });
    await makePurchase(body.course.id);
    const row = (await courseRow(body.course.id))!;
    const response = await admin.request(`/api/admin/courses/${body.course.id}`, { method: 'DELETE' });
    expect(response.status).toBe(409);
    expect((await response.json()).error).toMatchObject({ code: 'dependencies', message: 'admin.errors.dependencies' });
    expect(await courseRow(body.course.id)).toEqual(row);
    expect(await storedFiles()).toContain(`private/${row.pdf_path}`);
    const listed = await (await admin.request(`/api/admin/courses?search=${encodeURIComponent('Bought already')}`)).json();
    expect(listed.courses[0].purchaseCount).toBe(1);
  });
});

describe('bundles', () => {
  it('makes a bundle of courses in its currency, without a PDF, shows its badge and saving, and keeps its courses from deletion', async () => {
    const parts = await Promise.all(
      ['Bundle part one', 'Bundle part two'].map((title) => create({ title, language: 'en', price: '4.99' })),
    );
    const ids = parts.map(({ body }) => body.course.id as string);
    const other = await create({ title: 'Bundle part in euros', language: 'en', price: '4.99', currency: 'EUR' });
    const bundleFields = {
      title: 'Both parts',
      language: 'en',
      price: '7.00',
      kind: 'bundle',
      bundleReducesOwned: 'false',
      'title-tr': 'İki parça bir arada',
      'description-tr': 'İki bölüm birden.',
      'price-TRY': '299',
    };
    const made = async (fields: Fields) =>
      send(admin, 'POST', '/api/admin/courses?lang=en', courseForm({ ...bundleFields, ...fields }, { cover: pngUpload() }));

    const refused = async (fields: Fields) => ((await (await made(fields)).json()) as { error: { fields: object } }).error.fields;
    expect(await refused({ bundleCourses: `${ids[0]},${other.body.course.id}` })).toEqual({
      bundleCourses: 'admin.courses.errors.bundleCurrency',
    });
    expect(await refused({ bundleCourses: ids[0] })).toEqual({ bundleCourses: 'admin.courses.errors.bundleCoursesTooFew' });
    // Checked on the server too: the Turkish text is required, another currency's price must be one.
    expect(await refused({ bundleCourses: ids.join(','), 'title-tr': ' ', 'price-EUR': 'abc' })).toEqual({
      'title-tr': 'admin.courses.errors.bundleTitleRequired.tr',
      'price-EUR': 'admin.courses.errors.priceInvalid',
    });

    const response = await made({ bundleCourses: [...ids].reverse().join(',') });
    expect(response.status).toBe(201);
    const { course } = (await response.json()) as {
      course: { id: string; kind: string; bundleCourseIds: string[]; hasPdf: boolean };
    };
    expect(course).toMatchObject({
      kind: 'bundle',
      bundleCourseIds: [...ids].reverse(),
      hasPdf: false,
      bundleReducesOwned: false,
    });
    expect(await refused({ bundleCourses: `${ids[0]},${course.id}` })).toEqual({
      bundleCourses: 'admin.courses.errors.bundleCoursesInvalid',
    });

    const { html } = await page(`/en/course/${course.id}`);
    expect(html).toContain('Bundle · 2 courses');
    expect(html).toContain('Save $2.98 on $9.98 bought separately');
    // In Turkish: its Turkish text, at its lira price (the Turkish pages' currency), no saving claimed in lira.
    const turkish = (await page(`/tr/course/${course.id}`)).html;
    expect(turkish).toContain('<h1 class="text-3xl font-bold sm:text-4xl">İki parça bir arada</h1>');
    expect(turkish).toMatch(/data-testid="course-price">\s*₺299,00/);
    expect(turkish).not.toContain('tasarruf');
    expect(turkish).toContain(`/tr/checkout/${course.id}?currency=TRY`);
    const saved = await send(admin, 'GET', `/api/admin/courses/${course.id}?lang=en`);
    expect(((await saved.json()) as { course: object }).course).toMatchObject({
      bundleTexts: { en: { title: 'Both parts' }, tr: { title: 'İki parça bir arada', description: 'İki bölüm birden.' } },
      bundlePrices: { USD: 700, TRY: 29900 },
    });
    // A bundle stays a bundle: an edit that says otherwise is refused.
    const edit = await send(
      admin,
      'PUT',
      `/api/admin/courses/${course.id}?lang=en`,
      courseForm({ ...bundleFields, kind: 'course' }),
    );
    expect(((await edit.json()) as { error: { fields: object } }).error.fields).toEqual({
      kind: 'admin.courses.errors.kindFixed',
    });
    expect((await admin.request(`/api/admin/courses/${ids[0]}`, { method: 'DELETE' })).status).toBe(409);
  });
});

describe('authorization', () => {
  it('answers 401 to visitors and 403 to buyers on every endpoint, and changes nothing', async () => {
    const { body } = await create({ title: 'Guarded course' });
    const id = body.course.id;
    const before = (await courseRow(id))!;
    const stored = await storedFiles();
    const calls: [string, string, () => RequestInit][] = [
      ['GET', '/api/admin/courses', () => ({})],
      [
        'POST',
        '/api/admin/courses',
        () => ({
          body: courseForm({}, { pdf: { bytes: Buffer.from('%PDF-1.4\n%%EOF'), name: 'a.pdf', type: 'application/pdf' } }),
        }),
      ],
      ['GET', `/api/admin/courses/${id}`, () => ({})],
      ['PUT', `/api/admin/courses/${id}`, () => ({ body: courseForm({ title: 'Hijacked' }) })],
      ['DELETE', `/api/admin/courses/${id}`, () => ({})],
      [
        'PATCH',
        `/api/admin/courses/${id}/status`,
        () => ({ headers: { 'content-type': 'application/json' }, body: '{"isActive":false}' }),
      ],
    ];
    for (const [method, url, init] of calls) {
      expect((await new Browser(server).request(url, { method, ...init() })).status, `${method} ${url} anonymous`).toBe(401);
      expect((await buyer.request(url, { method, ...init() })).status, `${method} ${url} buyer`).toBe(403);
    }
    expect(await courseRow(id)).toEqual(before);
    expect(await storedFiles()).toEqual(stored);
    expect((await new Browser(server).request('/en/admin/courses')).status).toBe(302);
    expect((await buyer.request('/tr/admin/courses')).headers.get('location')).toBe('/tr/dashboard');
    const adminPage = await admin.request('/tr/admin/courses');
    expect(adminPage.status).toBe(200);
    const html = await adminPage.text();
    expect(html).toContain('Guarded course');
    expect(html).not.toContain(before.pdf_path!);
  });
});
