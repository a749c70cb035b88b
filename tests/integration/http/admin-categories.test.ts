import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { makeCourse } from '../../support/factories.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';

let server: TestServer;
let admin: Browser;
let buyer: Browser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInBrowser(server, { role: 'admin' });
  buyer = await signedInBrowser(server, { role: 'user' });
});
afterAll(() => server.stop());

const send = (browser: Browser, method: string, path: string, body?: unknown) => browser.json(method, path, body);

interface CategoryJson {
  id: string;
  slug: string;
  names: Record<string, string>;
  descriptions: Record<string, string>;
  color: string;
  icon: string;
  active: boolean;
  sortOrder: number;
  courseCount: number;
}

let counter = 0;
const category = (overrides: Record<string, unknown> = {}) => ({
  'name-en': `Cooking ${++counter}`,
  'name-tr': `Yemek Pişirme ${counter}`,
  'description-en': 'Recipes and techniques.',
  'description-tr': 'Tarifler ve teknikler.',
  color: '#10b981',
  icon: 'Sprout',
  sortOrder: 10,
  active: true,
  ...overrides,
});

async function create(body: Record<string, unknown>) {
  const response = await send(admin, 'POST', '/api/admin/categories', body);
  return {
    status: response.status,
    json: (await response.json()) as { category: CategoryJson; error?: { message: string; fields?: Record<string, string> } },
  };
}

const catalogue = async (lang: 'en' | 'tr') => (await server.fetch(`/${lang}/courses`)).text();

describe('admin categories over HTTP', () => {
  it('lists every category by sort order, with how many courses use each', async () => {
    const response = await send(admin, 'GET', '/api/admin/categories');
    expect(response.status).toBe(200);
    const { categories } = (await response.json()) as { categories: CategoryJson[] };
    const orders = categories.map((item) => item.sortOrder);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    const seeded = await db().selectFrom('courses').select('category').execute();
    const technology = categories.find((item) => item.slug === 'technology')!;
    expect(technology.courseCount).toBe(seeded.filter((row) => row.category === 'technology').length);
    expect(technology.courseCount).toBeGreaterThan(0);
  });

  it('creates a category that shows in the storefront filters at once, slug made from the English name', async () => {
    const { status, json } = await create(category({ 'name-en': 'Home & Garden Care', 'name-tr': 'Ev ve Bahçe Bakımı' }));
    expect(status).toBe(201);
    expect(json.category).toMatchObject({
      slug: 'home-garden-care',
      names: { en: 'Home & Garden Care', tr: 'Ev ve Bahçe Bakımı' },
      descriptions: { en: 'Recipes and techniques.', tr: 'Tarifler ve teknikler.' },
      color: '#10B981',
      icon: 'Sprout',
      active: true,
      sortOrder: 10,
      courseCount: 0,
    });
    await expect.poll(() => catalogue('tr'), { timeout: 2000 }).toContain('Ev ve Bahçe Bakımı');
    expect(await catalogue('en')).toContain('Home &amp; Garden Care');
  });

  it('uses the defaults: colour #3B82F6, icon BookOpen, active; Turkish letters transliterated in the slug', async () => {
    const { status, json } = await create({ 'name-en': 'Şehir Yaşamı', 'name-tr': 'Şehir Yaşamı', sortOrder: '3' });
    expect(status).toBe(201);
    expect(json.category).toMatchObject({ slug: 'sehir-yasami', color: '#3B82F6', icon: 'BookOpen', active: true, sortOrder: 3 });
  });

  it('updates names and deactivates and reactivates, each seen by visitors at once', async () => {
    const { json } = await create(category({ 'name-en': 'Woodwork', 'name-tr': 'Ahşap İşleri' }));
    const updated = await send(
      admin,
      'PUT',
      `/api/admin/categories/${json.category.id}`,
      category({ 'name-en': 'Woodworking', 'name-tr': 'Ahşap Ustalığı', slug: json.category.slug }),
    );
    expect(updated.status).toBe(200);
    await expect.poll(() => catalogue('tr'), { timeout: 2000 }).toContain('Ahşap Ustalığı');

    const off = await send(admin, 'PATCH', `/api/admin/categories/${json.category.id}`, { active: false });
    expect(off.status).toBe(200);
    expect((await off.json()).category.active).toBe(false);
    await expect.poll(() => catalogue('tr'), { timeout: 2000 }).not.toContain('Ahşap Ustalığı');

    expect((await send(admin, 'PATCH', `/api/admin/categories/${json.category.id}`, { active: true })).status).toBe(200);
    await expect.poll(() => catalogue('tr'), { timeout: 2000 }).toContain('Ahşap Ustalığı');
  });

  it('changes a slug and keeps its courses attached', async () => {
    const { json } = await create(category({ slug: 'old-slug' }));
    const course = await makeCourse({ category: 'old-slug' });
    const renamed = await send(admin, 'PUT', `/api/admin/categories/${json.category.id}`, category({ slug: 'New Slug' }));
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).category).toMatchObject({ slug: 'new-slug', courseCount: 1 });
    const row = await db().selectFrom('courses').select('category').where('id', '=', course.id).executeTakeFirstOrThrow();
    expect(row.category).toBe('new-slug');
  });

  it('refuses to delete a category that courses use: 409 with how many, nothing deleted', async () => {
    const { json } = await create(category({ slug: 'in-use' }));
    await makeCourse({ category: 'in-use' });
    await makeCourse({ category: 'in-use', title: 'Second course' });
    const response = await send(admin, 'DELETE', `/api/admin/categories/${json.category.id}`);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { message: 'admin.errors.dependencies', details: { courseCount: 2 } } });
    expect(await db().selectFrom('categories').select('id').where('id', '=', json.category.id).executeTakeFirst()).toBeDefined();
    expect(await db().selectFrom('courses').select('id').where('category', '=', 'in-use').execute()).toHaveLength(2);

    const technology = await db()
      .selectFrom('categories')
      .select('id')
      .where('slug', '=', 'technology')
      .executeTakeFirstOrThrow();
    expect((await send(admin, 'DELETE', `/api/admin/categories/${technology.id}`)).status).toBe(409);
  });

  it('deletes an unused category, gone from the storefront at once', async () => {
    const { json } = await create(category({ 'name-en': 'Short Lived', 'name-tr': 'Kısa Ömürlü' }));
    await expect.poll(() => catalogue('tr'), { timeout: 2000 }).toContain('Kısa Ömürlü');
    const response = await send(admin, 'DELETE', `/api/admin/categories/${json.category.id}`);
    expect(response.status).toBe(200);
    expect(
      await db().selectFrom('categories').select('id').where('id', '=', json.category.id).executeTakeFirst(),
    ).toBeUndefined();
    await expect.poll(() => catalogue('tr'), { timeout: 2000 }).not.toContain('Kısa Ömürlü');
    expect((await send(admin, 'DELETE', `/api/admin/categories/${json.category.id}`)).status).toBe(404);
  });

  it('requires a name in every language and a slug; sort order a whole number of at least 0; valid colour and icon', async () => {
    const empty = await create({});
    expect(empty.status).toBe(400);
    expect(empty.json.error?.fields).toMatchObject({
      ...Object.fromEntries(LANGUAGES.map((lang) => [`name-${lang}`, `admin.categories.nameRequired.${lang}`])),
      sortOrder: 'admin.categories.sortOrderInvalid',
    });
    const cases: [Record<string, unknown>, string, string][] = [
      ...LANGUAGES.map((lang): [Record<string, unknown>, string, string] => [
        { [`name-${lang}`]: '  ' },
        `name-${lang}`,
        `admin.categories.nameRequired.${lang}`,
      ]),
      [{ 'name-en': '!!!', slug: '' }, 'slug', 'admin.categories.slugRequired'],
      [{ sortOrder: -1 }, 'sortOrder', 'admin.categories.sortOrderInvalid'],
      [{ sortOrder: 1.5 }, 'sortOrder', 'admin.categories.sortOrderInvalid'],
      [{ sortOrder: '' }, 'sortOrder', 'admin.categories.sortOrderInvalid'],
      [{ sortOrder: 'abc' }, 'sortOrder', 'admin.categories.sortOrderInvalid'],
      [{ color: 'blue' }, 'color', 'admin.categories.colorInvalid'],
      [{ color: '#12345' }, 'color', 'admin.categories.colorInvalid'],
      [{ icon: '<svg onload=alert(1)>' }, 'icon', 'admin.categories.iconInvalid'],
    ];
    for (const [overrides, field, message] of cases) {
      const { status, json } = await create(category(overrides));
      expect(status, JSON.stringify(overrides)).toBe(400);
      expect(json.error?.fields?.[field], JSON.stringify(overrides)).toBe(message);
    }
    expect((await create(category({ sortOrder: 0 }))).status).toBe(201);
  });

  it('answers a slug already taken with 409 at the slug field', async () => {
    const created = await create(category({ slug: 'taken-slug' }));
    expect(created.status).toBe(201);
    const again = await create(category({ slug: 'taken-slug' }));
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ message: 'admin.errors.duplicate', fields: { slug: 'admin.errors.duplicate' } });
    const other = await create(category());
    const moved = await send(admin, 'PUT', `/api/admin/categories/${other.json.category.id}`, category({ slug: 'technology' }));
    expect(moved.status).toBe(409);
    expect((await moved.json()).error.fields).toEqual({ slug: 'admin.errors.duplicate' });
  });

  it('answers malformed bodies and ids with 4xx, never 500', async () => {
    for (const body of [
      '',
      '{',
      'null',
      '[]',
      '{"name-en":1}',
      JSON.stringify(category({ active: 'yes' })),
      JSON.stringify(category({ 'name-en': 'a\u0000b' })),
    ]) {
      const response = await admin.request('/api/admin/categories', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body.slice(0, 30)).toBeLessThan(500);
    }
    expect((await send(admin, 'GET', '/api/admin/categories/nope')).status).toBe(404);
    expect((await send(admin, 'PUT', `/api/admin/categories/${randomUUID()}`, category())).status).toBe(404);
    expect((await send(admin, 'PATCH', '/api/admin/categories/1', { active: true })).status).toBe(404);
    expect((await send(admin, 'DELETE', '/api/admin/categories/1')).status).toBe(404);
  });

  it('is for admins only: 401 signed out, 403 for a buyer, on every endpoint and the page', async () => {
    const anonymous = new Browser(server);
    const target = await db().selectFrom('categories').select('id').where('slug', '=', 'design').executeTakeFirstOrThrow();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/categories'],
      ['POST', '/api/admin/categories', category()],
      ['GET', `/api/admin/categories/${target.id}`],
      ['PUT', `/api/admin/categories/${target.id}`, category()],
      ['PATCH', `/api/admin/categories/${target.id}`, { active: false }],
      ['DELETE', `/api/admin/categories/${target.id}`],
    ];
    const before = await db().selectFrom('categories').selectAll().orderBy('slug').execute();
    for (const [method, path, body] of calls) {
      expect((await send(anonymous, method, path, body)).status, `${method} ${path}`).toBe(401);
      expect((await send(buyer, method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    expect(await db().selectFrom('categories').selectAll().orderBy('slug').execute()).toEqual(before);

    expect((await anonymous.request('/en/admin/categories')).headers.get('location')).toBe(
      '/en/login?next=%2Fen%2Fadmin%2Fcategories',
    );
    expect((await buyer.request('/tr/admin/categories')).headers.get('location')).toBe('/tr/dashboard');
    const adminPage = await admin.request('/tr/admin/categories');
    expect(adminPage.status).toBe(200);
    expect(await adminPage.text()).toContain('Teknoloji');
  });
});
