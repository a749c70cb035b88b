import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { uploadedImage } from '../../../src/lib/blog-images.ts';
import { CONTENT_MAX, POST_BODY_MAX_BYTES } from '../../../src/lib/admin/blogs.schema.ts';
import { MAX_JSON_BODY_BYTES } from '../../../src/lib/http.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { makePngBomb } from '../../support/files.ts';

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

let counter = 0;
const post = (overrides: Record<string, unknown> = {}) => ({
  title: `Bütçe Yazısı ${++counter}`,
  excerpt: 'Kısa bir özet.',
  content: 'İlk paragraf.\n\n## Ara başlık\n\nİkinci paragraf.',
  author: 'Editör Ayşe',
  cover: 'https://images.example.com/cover.jpg',
  coverAlt: 'A desk with a laptop and a cup of tea',
  tags: 'para, bütçe, , para',
  language: 'tr',
  ...overrides,
});

const page = async (path: string) => {
  const response = await server.fetch(path);
  return { status: response.status, html: await response.text() };
};

async function create(body: Record<string, unknown>) {
  const response = await send(admin, 'POST', '/api/admin/blog-posts', body);
  return {
    status: response.status,
    json: (await response.json()) as {
      post: { id: string; slug: string; published: boolean; tags: string[] };
      error?: { message: string; fields?: Record<string, string> };
    },
  };
}

describe('admin blog posts over HTTP', () => {
  it('creates a draft by default, with the slug made from the Turkish title and tags tidied', async () => {
    const { status, json } = await create(post({ title: 'İş Görüşmesinde Işık Saçın' }));
    expect(status).toBe(201);
    expect(json.post).toMatchObject({
      slug: 'is-gorusmesinde-isik-sacin',
      published: false,
      language: 'tr',
      tags: ['para', 'bütçe'],
    });
    const row = await db().selectFrom('blog_posts').selectAll().where('id', '=', json.post.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_published: false, author_name: 'Editör Ayşe', meta_description: null, cta_link: null });
    expect((await page('/tr/blog/is-gorusmesinde-isik-sacin')).status).toBe(404);
  });

  it('takes a Turkish post at the longest the form allows, and previews it, whatever its bytes', async () => {
    const content = 'Ğ'.repeat(CONTENT_MAX - 1000) + '\n\n' + 'ş'.repeat(990);
    expect(Buffer.byteLength(JSON.stringify(post({ content })))).toBeGreaterThan(MAX_JSON_BODY_BYTES);
    expect((await create(post({ content }))).status).toBe(201);
    expect((await send(admin, 'POST', '/api/admin/blog-preview', { content })).status).toBe(200);
    const form = new URLSearchParams({ post: JSON.stringify(post({ content, publishedAt: '' })) });
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await admin.request('/en/admin/blog-preview', { method: 'POST', headers, body: form })).status).toBe(200);
  });

  it('publishes a post that readers see at once, and unpublishing hides it at once', async () => {
    const { json } = await create(post({ title: 'Hemen Yayında', published: true }));
    expect(json.post.slug).toBe('hemen-yayinda');
    await expect.poll(async () => (await page('/tr/blog/hemen-yayinda')).status, { timeout: 2000 }).toBe(200);
    expect((await page('/tr/blog')).html).toContain('Hemen Yayında');

    const toggled = await send(admin, 'PATCH', `/api/admin/blog-posts/${json.post.id}`, { published: false });
    expect(toggled.status).toBe(200);
    expect((await toggled.json()).post.published).toBe(false);
    await expect.poll(async () => (await page('/tr/blog/hemen-yayinda')).status, { timeout: 2000 }).toBe(404);
    expect((await page('/tr/blog')).html).not.toContain('Hemen Yayında');

    expect((await send(admin, 'PATCH', `/api/admin/blog-posts/${json.post.id}`, { published: true })).status).toBe(200);
    await expect.poll(async () => (await page('/tr/blog/hemen-yayinda')).status, { timeout: 2000 }).toBe(200);
  });

  it('updates every field and shows the edit on the public page at once', async () => {
    const { json } = await create(post({ title: 'Önce Böyle', published: true }));
    await expect.poll(async () => (await page(`/tr/blog/${json.post.slug}`)).status, { timeout: 2000 }).toBe(200);
    const update = post({
      title: 'Sonra Şöyle',
      slug: json.post.slug,
      content: 'Yeni içerik **kalın**.',
      seoTitle: 'SEO başlığı',
      metaDescription: 'x'.repeat(160),
      tldr: 'Kısaca.',
      ctaText: 'Kurslara bak',
      ctaLink: '/tr/courses',
      translationKey: 'budget-key',
      published: true,
    });
    const response = await send(admin, 'PUT', `/api/admin/blog-posts/${json.post.id}`, update);
    expect(response.status).toBe(200);
    await expect.poll(async () => (await page(`/tr/blog/${json.post.slug}`)).html, { timeout: 2000 }).toContain('Sonra Şöyle');
    const article = (await page(`/tr/blog/${json.post.slug}`)).html;
    expect(article).toContain('<strong>kalın</strong>');
    expect(article).toContain('Kurslara bak');

    const loaded = await (await send(admin, 'GET', `/api/admin/blog-posts/${json.post.id}`)).json();
    expect(loaded.post).toMatchObject({
      title: 'Sonra Şöyle',
      seoTitle: 'SEO başlığı',
      tldr: 'Kısaca.',
      ctaLink: '/tr/courses',
      translationKey: 'budget-key',
    });
  });

  it('deletes a post: gone from the list and from the public blog at once', async () => {
    const { json } = await create(post({ title: 'Silinecek Yazı', published: true }));
    await expect.poll(async () => (await page('/tr/blog/silinecek-yazi')).status, { timeout: 2000 }).toBe(200);
    expect((await send(admin, 'DELETE', `/api/admin/blog-posts/${json.post.id}`)).status).toBe(200);
    await expect.poll(async () => (await page('/tr/blog/silinecek-yazi')).status, { timeout: 2000 }).toBe(404);
    expect(await db().selectFrom('blog_posts').select('id').where('id', '=', json.post.id).executeTakeFirst()).toBeUndefined();
    expect((await send(admin, 'DELETE', `/api/admin/blog-posts/${json.post.id}`)).status).toBe(404);
  });

  it('lists posts of both languages, newest first, searching title, author and slug without caring about Turkish case', async () => {
    await create(post({ title: 'Arama İçin Türkçe', author: 'Işıl Yazar' }));
    await create(post({ title: 'Search In English', language: 'en', author: 'Jane Writer', slug: 'special-english-slug' }));
    const all = await (await send(admin, 'GET', '/api/admin/blog-posts')).json();
    const languages = new Set(all.posts.map((row: { language: string }) => row.language));
    expect(languages).toEqual(new Set(['en', 'tr']));
    const dates = all.posts.map((row: { date: string }) => Date.parse(row.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(all.posts[0]).not.toHaveProperty('content');

    const search = async (q: string) =>
      (await (await send(admin, 'GET', `/api/admin/blog-posts?q=${encodeURIComponent(q)}`)).json()).posts.map(
        (row: { title: string }) => row.title,
      );
    expect(await search('ARAMA İÇİN')).toEqual(['Arama İçin Türkçe']);
    expect(await search('ışıl')).toEqual(['Arama İçin Türkçe']);
    expect(await search('special-english')).toEqual(['Search In English']);
    expect(await search('%')).toEqual([]);
    expect(await search('zz\u0000zz')).toEqual([]);
  });

  it('requires title, excerpt, content, author, cover image URL and its description, each at its field', async () => {
    const { status, json } = await create({ language: 'en' });
    expect(status).toBe(400);
    expect(json.error?.fields).toMatchObject({
      title: 'admin.blogs.titleRequired',
      excerpt: 'admin.blogs.excerptRequired',
      content: 'admin.blogs.contentRequired',
      author: 'admin.blogs.authorRequired',
      cover: 'admin.blogs.coverRequired',
      coverAlt: 'admin.blogs.coverAltRequired',
    });
    const blanks = await create(post({ title: '   ', excerpt: ' ', content: '', author: '', cover: '', coverAlt: ' ' }));
    expect(blanks.status).toBe(400);
    expect(Object.keys(blanks.json.error?.fields ?? {}).sort()).toEqual([
      'author',
      'content',
      'cover',
      'coverAlt',
      'excerpt',
      'title',
    ]);
  });

  it('refuses a slug that cannot be made, a bad cover URL, a long meta description and an unsafe link', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: '!!!', slug: '' }, 'slug', 'admin.blogs.slugRequired'],
      [{ cover: 'javascript:alert(1)' }, 'cover', 'admin.blogs.coverInvalid'],
      [{ cover: '//evil.example/x.png' }, 'cover', 'admin.blogs.coverInvalid'],
      [{ metaDescription: 'x'.repeat(161) }, 'metaDescription', 'admin.blogs.metaTooLong'],
      [{ ctaText: 'Tıkla', ctaLink: 'javascript:alert(1)' }, 'ctaLink', 'admin.blogs.ctaLinkInvalid'],
      [{ ctaText: 'Tıkla', ctaLink: 'data:text/html,x' }, 'ctaLink', 'admin.blogs.ctaLinkInvalid'],
      [{ ctaText: 'Tıkla' }, 'ctaLink', 'admin.blogs.ctaIncomplete'],
      [{ language: 'de' }, 'language', 'errors.badRequest'],
    ];
    for (const [overrides, field, message] of cases) {
      const { status, json } = await create(post(overrides));
      expect(status, JSON.stringify(overrides)).toBe(400);
      expect(json.error?.fields?.[field], JSON.stringify(overrides)).toBe(message);
    }
    const ok = await create(post({ metaDescription: 'x'.repeat(160), ctaText: 'Kurslar', ctaLink: 'https://example.com/a' }));
    expect(ok.status).toBe(201);
  });

  it('answers a slug taken in the same language with 409 at the slug field, and allows it in the other language', async () => {
    const first = await create(post({ title: 'Aynı Başlık' }));
    expect(first.status).toBe(201);
    const again = await create(post({ title: 'Aynı Başlık' }));
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ message: 'admin.errors.duplicate', fields: { slug: 'admin.errors.duplicate' } });
    const english = await create(post({ title: 'Aynı Başlık', language: 'en' }));
    expect(english.status).toBe(201);

    const other = await create(post({ title: 'Başka Başlık' }));
    const renamed = await send(
      admin,
      'PUT',
      `/api/admin/blog-posts/${other.json.post.id}`,
      post({ title: 'Başka Başlık', slug: 'ayni-baslik' }),
    );
    expect(renamed.status).toBe(409);
    expect((await renamed.json()).error.fields).toEqual({ slug: 'admin.errors.duplicate' });
  });

  it('answers malformed bodies and ids with 4xx, never 500', async () => {
    for (const body of [
      '',
      '{',
      'null',
      '[]',
      '{"title":1,"tags":{}}',
      JSON.stringify(post({ published: 'yes' })),
      JSON.stringify(post({ title: 'a\u0000b' })),
    ]) {
      const response = await admin.request('/api/admin/blog-posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body.slice(0, 30)).toBeLessThan(500);
    }
    const tooLong = await send(admin, 'POST', '/api/admin/blog-posts', post({ content: 'x'.repeat(CONTENT_MAX + 1) }));
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error.fields).toEqual({ content: 'validation.tooLong' });
    expect((await send(admin, 'POST', '/api/admin/blog-posts', post({ content: 'x'.repeat(POST_BODY_MAX_BYTES) }))).status).toBe(
      413,
    );
    expect((await send(admin, 'GET', '/api/admin/blog-posts/not-a-uuid')).status).toBe(404);
    expect((await send(admin, 'PUT', `/api/admin/blog-posts/${randomUUID()}`, post())).status).toBe(404);
    expect((await send(admin, 'PATCH', '/api/admin/blog-posts/1', { published: true })).status).toBe(404);
    const { json } = await create(post());
    expect((await send(admin, 'PATCH', `/api/admin/blog-posts/${json.post.id}`, { published: 'true' })).status).toBe(400);
  });

  it('previews Markdown through the server sanitizer: no script, no event handler', async () => {
    const content =
      '# Başlık\n\n**kalın** metin\n\n<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"><img src="https://example.com/a.png" onerror="alert(1)">\n\n[bağlantı](javascript:alert(1))';
    const response = await send(admin, 'POST', '/api/admin/blog-preview', { content });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('no-store');
    const { html } = (await response.json()) as { html: string };
    expect(html).toContain('<h2>Başlık</h2>');
    expect(html).toContain('<strong>kalın</strong>');
    expect(html).toContain('src="https://example.com/a.png"');
    expect(html).not.toMatch(/<script|onerror|javascript:|__xss/i);
    expect((await send(admin, 'POST', '/api/admin/blog-preview', { content: 5 })).status).toBe(400);
  });

  it('is for admins only: 401 signed out, 403 for a buyer, on every endpoint and the page', async () => {
    const anonymous = new Browser(server);
    const id = randomUUID();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/blog-posts'],
      ['POST', '/api/admin/blog-posts', post()],
      ['GET', `/api/admin/blog-posts/${id}`],
      ['PUT', `/api/admin/blog-posts/${id}`, post()],
      ['PATCH', `/api/admin/blog-posts/${id}`, { published: true }],
      ['DELETE', `/api/admin/blog-posts/${id}`],
      ['POST', '/api/admin/blog-preview', { content: 'x' }],
      ['POST', `/api/admin/blog-posts/${id}/take-file`],
      ['POST', '/api/admin/blog-images', undefined],
    ];
    const before = await db()
      .selectFrom('blog_posts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    for (const [method, path, body] of calls) {
      expect((await send(anonymous, method, path, body)).status, `${method} ${path}`).toBe(401);
      expect((await send(buyer, method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    const after = await db()
      .selectFrom('blog_posts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(after.count).toBe(before.count);

    expect((await anonymous.request('/tr/admin/blogs')).headers.get('location')).toBe('/tr/login?next=%2Ftr%2Fadmin%2Fblogs');
    expect((await buyer.request('/en/admin/blogs')).headers.get('location')).toBe('/en/dashboard');
    const adminPage = await admin.request('/tr/admin/blogs');
    expect(adminPage.status).toBe(200);
    expect(adminPage.headers.get('cache-control')).toContain('no-store');
    expect(await adminPage.text()).toContain('Blog yazıları');
  });

  it('stores an uploaded cover in three widths, judged by its bytes, and an article image in its own widths', async () => {
    const upload = async (kind: string, bytes: Uint8Array, name = 'photo.png') => {
      const form = new FormData();
      form.set('kind', kind);
      form.set('image', new Blob([Uint8Array.from(bytes)], { type: 'image/png' }), name);
      const response = await admin.request('/api/admin/blog-images', { method: 'POST', body: form });
      return {
        status: response.status,
        json: (await response.json()) as {
          image?: { url: string; width: number; height: number };
          error?: { fields?: Record<string, string> };
        },
      };
    };
    const photo = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#884422' } })
      .jpeg()
      .toBuffer();
    const cover = await upload('cover', photo);
    expect(cover.status).toBe(201);
    expect(cover.json.image).toMatchObject({
      width: 1200,
      height: 630,
      url: expect.stringMatching(/^\/media\/blog\/covers\/[0-9a-f]{16}-1200x630\.webp$/),
    });
    const srcset = uploadedImage(cover.json.image!.url)!.srcset!;
    for (const [url, width] of srcset.split(', ').map((entry) => entry.split(' '))) {
      const file = await server.fetch(url!);
      expect(file.status, url).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(Number(width!.replace('w', '')));
    }

    const small = await sharp({ create: { width: 640, height: 400, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const inline = await upload('inline', small);
    expect(inline.json.image).toMatchObject({ width: 640, height: 400 });
    expect(uploadedImage(inline.json.image!.url)!.srcset).toMatch(/-480\.webp 480w, .*-640x400\.webp 640w$/);

    for (const bytes of [Buffer.from('<svg onload="alert(1)"></svg>'), Buffer.from('%PDF-1.7 fake'), photo.subarray(0, 40)]) {
      const refused = await upload('cover', bytes);
      expect(refused.status).toBe(400);
      expect(refused.json.error?.fields).toEqual({ image: 'admin.blogs.imageErrors.notImage' });
    }
    // The same pipeline as course covers (functions/storage/images.ts): a bomb is named as such.
    expect((await upload('inline', await makePngBomb())).json.error?.fields).toEqual({
      image: 'admin.blogs.imageErrors.tooManyPixels',
    });
    expect((await upload('banner', photo)).status).toBe(400);
    expect((await admin.json('POST', '/api/admin/blog-images', { image: 'x' })).status).toBe(415);
  });

  it('keeps a publish date through edits, moves it when asked, and refuses a malformed one at its field', async () => {
    const { json } = await create(post({ title: 'Tarihli Yazı', published: true, publishedAt: null }));
    const first = (
      await db().selectFrom('blog_posts').select('published_at').where('id', '=', json.post.id).executeTakeFirstOrThrow()
    ).published_at;
    expect(first).toBeInstanceOf(Date);
    expect(
      (await send(admin, 'PUT', `/api/admin/blog-posts/${json.post.id}`, post({ title: 'Tarihli Yazı 2', published: true })))
        .status,
    ).toBe(200);
    const kept = (
      await db().selectFrom('blog_posts').select('published_at').where('id', '=', json.post.id).executeTakeFirstOrThrow()
    ).published_at;
    expect(kept).toEqual(first);
    const moved = await send(
      admin,
      'PUT',
      `/api/admin/blog-posts/${json.post.id}`,
      post({ title: 'Tarihli Yazı 2', published: true, publishedAt: '2024-05-06T07:08:09.000Z' }),
    );
    expect((await moved.json()).post.publishedAt).toBe('2024-05-06T07:08:09.000Z');
    const bad = await send(admin, 'PUT', `/api/admin/blog-posts/${json.post.id}`, post({ publishedAt: 'next tuesday' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toEqual({ publishedAt: 'admin.blogs.publishedAtInvalid' });
    // Only a post with a content/blog file has a version to take.
    expect((await send(admin, 'POST', `/api/admin/blog-posts/${json.post.id}/take-file`)).status).toBe(409);
  });

  it('previews an unsaved post as published, in its own language, for admins only', async () => {
    const body = new URLSearchParams({
      post: JSON.stringify(post({ title: 'Önizlenen Yazı', content: '## Alt başlık\n\nMetin.', publishedAt: '' })),
    });
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const response = await admin.request('/en/admin/blog-preview', { method: 'POST', headers, body });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('no-store');
    const html = await response.text();
    expect(html).toContain('<html lang="tr"');
    expect(html).toMatch(/<h1[^>]*>Önizlenen Yazı<\/h1>/);
    expect(html).toContain('<h2>Alt başlık</h2>');
    expect(html).toContain('1 dk okuma');
    expect(html).toContain('noindex');
    const invalid = await admin.request('/en/admin/blog-preview', { method: 'POST', headers, body: 'post=%7B' });
    expect(invalid.status).toBe(400);
    expect((await buyer.request('/en/admin/blog-preview', { method: 'POST', headers, body })).headers.get('location')).toBe(
      '/en/dashboard',
    );
  });
});
