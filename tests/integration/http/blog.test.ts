import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okValue } from '../../support/factories.ts';
import {
  createBlogPost,
  deleteBlogPost,
  listAllPosts,
  setBlogPostPublished,
  updateBlogPost,
  type BlogPostInput,
} from '../../../functions/blog/admin.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  // A short scheduler interval: scheduled posts show within a second of their time.
  server = await startTestServer({ BLOG_SCHEDULER_INTERVAL_MS: '300' });
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
  it('lists the shipped Markdown articles of each language from the database, newest first, each linked to its translation', async () => {
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

  it('lets an editor take a shipped article down and put it back, in the feed and the sitemap too', async () => {
    const shipped = (await listAllPosts()).find((post) => post.language === 'en' && post.slug === 'first-monthly-budget')!;
    okValue(await setBlogPostPublished(shipped.id, false));
    await expect.poll(async () => (await page('/en/blog/first-monthly-budget')).status, { timeout: 2000 }).toBe(404);
    expect((await page('/en/rss.xml')).html).not.toContain('/en/blog/first-monthly-budget');
    expect((await page('/sitemap.xml')).html).not.toContain('/en/blog/first-monthly-budget');
    okValue(await setBlogPostPublished(shipped.id, true));
    await expect.poll(async () => (await page('/en/blog/first-monthly-budget')).status, { timeout: 2000 }).toBe(200);
    expect((await page('/en/rss.xml')).html).toContain('/en/blog/first-monthly-budget');
  });

  it('orders the blog, the feed and the sitemap by publish date, a date the editor moved included', async () => {
    const post = okValue(await createBlogPost(input({ slug: 'back-dated', language: 'en', title: 'Back Dated Post' })));
    okValue(
      await updateBlogPost(
        post.id,
        input({ slug: 'back-dated', language: 'en', title: 'Back Dated Post', publishedAt: new Date('2020-02-02T10:00:00Z') }),
      ),
    );
    await expect.poll(async () => (await page('/en/blog')).html, { timeout: 2000 }).toContain('Back Dated Post');
    const feed = (await page('/en/rss.xml')).html;
    const dates = [...feed.matchAll(/<pubDate>([^<]+)<\/pubDate>/g)].map((match) => Date.parse(match[1]!));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(feed.lastIndexOf('<item>')).toBeLessThan(feed.indexOf('/en/blog/back-dated'));
    expect((await page('/sitemap.xml')).html).toContain('<lastmod>2020-02-02T10:00:00.000Z</lastmod>');
  });

  it('shows a scheduled post on the cached blog, feed and sitemap by itself when its time comes, on every instance', async () => {
    // A second instance on the same database whose own scheduler would not tick in time: only the
    // first one's announcement (pg_notify) can purge its cache.
    const other = await startTestServer({ BLOG_SCHEDULER_INTERVAL_MS: '60000' });
    try {
      const otherPage = async (path: string) => (await other.fetch(path)).text();
      const at = new Date(Date.now() + 2500);
      okValue(await createBlogPost(input({ slug: 'comes-later', language: 'en', title: 'Comes Later', publishedAt: at })));
      // Cached now without it (pages stay cached 30 s unless purged).
      for (const path of ['/en/blog', '/en/rss.xml', '/sitemap.xml']) {
        expect((await page(path)).html, path).not.toContain('omes-later');
        expect(await otherPage(path), path).not.toContain('omes-later');
      }
      expect((await page('/en/blog/comes-later')).status).toBe(404);
      await expect.poll(async () => (await page('/en/blog')).html, { timeout: 8000, interval: 250 }).toContain('Comes Later');
      expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
      expect((await page('/en/rss.xml')).html).toContain('/en/blog/comes-later');
      expect((await page('/sitemap.xml')).html).toContain('/en/blog/comes-later');
      await expect.poll(() => otherPage('/en/blog'), { timeout: 3000, interval: 250 }).toContain('Comes Later');
      expect(await otherPage('/en/rss.xml')).toContain('/en/blog/comes-later');
    } finally {
      await other.stop();
    }
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

  it('restarts without duplicating a shipped article, resurrecting a deleted one or undoing an edit', async () => {
    const before = await listAllPosts();
    const find = (language: string, slug: string) => before.find((post) => post.language === language && post.slug === slug)!;
    const deleted = find('tr', 'bes-dakikada-sakinlesin');
    const edited = find('en', 'weekly-review-in-30-minutes');
    okValue(await deleteBlogPost(deleted.id));
    okValue(await updateBlogPost(edited.id, { ...edited, title: 'Weekly Review, Edited Here' }));

    await server.stop();
    server = await startTestServer({ BLOG_SCHEDULER_INTERVAL_MS: '300' });

    const after = await listAllPosts();
    expect(after).toHaveLength(before.length - 1);
    expect(new Set(after.map((post) => `${post.language}/${post.slug}`)).size).toBe(after.length);
    expect((await page('/tr/blog/bes-dakikada-sakinlesin')).status).toBe(404);
    expect((await page('/en/blog/weekly-review-in-30-minutes')).html).toContain('Weekly Review, Edited Here');
    expect((await page('/en/blog')).html).toContain('Weekly Review, Edited Here');
  });
});
