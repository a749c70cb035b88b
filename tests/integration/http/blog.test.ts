import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okValue } from '../../support/factories.ts';
import {
  createBlogPost,
  deleteBlogPost,
  setBlogPostPublished,
  updateBlogPost,
  type BlogPostInput,
} from '../../../functions/blog/blog.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const page = async (path: string) => {
  const response = await server.fetch(path);
  return { status: response.status, html: await response.text() };
};

const input = (overrides: Partial<BlogPostInput> = {}): BlogPostInput => ({
  slug: 'database-post',
  language: 'tr',
  title: 'Veritabanından Gelen Yazı',
  excerpt: 'Yönetim panelinden yazılan bir yazı.',
  content: 'İlk paragraf.\n\n## Ara başlık\n\nİkinci paragraf.',
  author: 'Editör Ayşe',
  cover: '/images/blog/budget-basics.svg',
  coverAlt: 'A notebook with a simple monthly budget',
  tags: ['yönetim'],
  published: true,
  ...overrides,
});

describe('blog through the real server', () => {
  it('lists the Markdown posts of each language, newest first, each linked to its translation', async () => {
    const tr = await page('/tr/blog');
    const en = await page('/en/blog');
    expect(tr.html).toContain('İlk Aylık Bütçenizi Yapın');
    expect(tr.html).not.toContain('Your First Monthly Budget');
    expect(en.html).toContain('Your First Monthly Budget');
    const order = ['Weekly Review', 'Calm', 'STAR', 'First Monthly Budget'].map((word) => en.html.indexOf(word));
    expect(order.every((position) => position > 0)).toBe(true);
    const article = await page('/tr/blog/ilk-aylik-butcenizi-yapin');
    expect(article.html).toContain('hreflang="en" href="http://127.0.0.1');
    expect(article.html).toContain('/en/blog/first-monthly-budget');
    expect(article.html).toContain('"@type":"BlogPosting"');
    expect(article.html).toMatch(/href="\/tr\/course\/[0-9a-f-]{36}"/);
  });

  it('shows a database post, its edits, its unpublishing and its deletion at once, without a restart', async () => {
    expect((await page('/tr/blog/database-post')).status).toBe(404);
    expect((await page('/tr/blog')).html).not.toContain('Veritabanından Gelen Yazı');

    const post = okValue(await createBlogPost(input()));
    await expect.poll(async () => (await page('/tr/blog')).html, { timeout: 2000 }).toContain('Veritabanından Gelen Yazı');
    expect((await page('/tr/blog/database-post')).status).toBe(200);
    expect((await page('/en/blog')).html).not.toContain('Veritabanından Gelen Yazı');

    await updateBlogPost(post.id, input({ title: 'Düzenlenmiş Başlık' }));
    await expect.poll(async () => (await page('/tr/blog/database-post')).html, { timeout: 2000 }).toContain('Düzenlenmiş Başlık');

    await setBlogPostPublished(post.id, false);
    await expect.poll(async () => (await page('/tr/blog/database-post')).status, { timeout: 2000 }).toBe(404);
    expect((await page('/tr/blog')).html).not.toContain('Düzenlenmiş Başlık');

    await setBlogPostPublished(post.id, true);
    await expect.poll(async () => (await page('/tr/blog/database-post')).status, { timeout: 2000 }).toBe(200);
    await deleteBlogPost(post.id);
    await expect.poll(async () => (await page('/tr/blog/database-post')).status, { timeout: 2000 }).toBe(404);
  });

  it('lets an unpublished database post with a file slug take the shipped article down', async () => {
    const draft = okValue(
      await createBlogPost(input({ slug: 'first-monthly-budget', language: 'en', title: 'Draft override', published: false })),
    );
    await expect.poll(async () => (await page('/en/blog/first-monthly-budget')).status, { timeout: 2000 }).toBe(404);
    await deleteBlogPost(draft.id);
    await expect.poll(async () => (await page('/en/blog/first-monthly-budget')).status, { timeout: 2000 }).toBe(200);
  });

  it('serves a script-bearing post with nothing executable in it', async () => {
    await createBlogPost(
      input({
        slug: 'xss-post',
        content: 'Hello <script>alert(1)</script><img src=x onerror=alert(2)> [x](javascript:alert(3))',
      }),
    );
    const { status, html } = await page('/tr/blog/xss-post');
    expect(status).toBe(200);
    const body = html.slice(html.indexOf('prose-page'));
    expect(body).not.toMatch(/<script>alert|onerror=|javascript:alert/);
  });

  it('never fails on odd slugs or NUL bytes in queries', async () => {
    expect((await server.fetch('/en/courses?search=%00abc%01')).status).toBe(200);
    for (const slug of ['%E0%A4%A', 'a.b.c', 'ışık-ğüz', 'x'.repeat(3000), '..%2F..%2Fetc', '%00', 'İSTANBUL']) {
      const response = await server.fetch(`/en/blog/${slug}`);
      expect(response.status, slug).toBeLessThan(500);
    }
  });
});
