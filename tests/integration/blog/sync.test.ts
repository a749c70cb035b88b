import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBlogPost,
  deleteBlogPost,
  getPost,
  listAllPosts,
  setBlogPostPublished,
  takeFileVersion,
  updateBlogPost,
  type BlogPostInput,
} from '../../../functions/blog/admin.ts';
import { findPublishedPost, findTranslations, listPublishedPosts, type BlogPost } from '../../../functions/blog/blog.ts';
import { readBlogFiles } from '../../../functions/blog/blog-file.ts';
import { syncBlogFiles } from '../../../functions/blog/sync.ts';
import { announceDuePosts } from '../../../functions/blog/schedule.ts';
import { db } from '../../../functions/db/database.ts';
import { okValue } from '../../support/factories.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'blog-files-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function writePost(language: 'en' | 'tr', slug: string, fields: Record<string, string> = {}, body = 'The body.') {
  const front = {
    slug,
    translationKey: 'pair',
    title: `Title of ${slug}`,
    excerpt: 'An excerpt.',
    author: 'Ada Writer',
    date: '2026-01-05',
    cover: '/images/blog/budget-basics.svg',
    coverAlt: 'decorative',
    ...fields,
  };
  const yaml = Object.entries(front)
    .map(([key, value]) => `${key}: ${value.startsWith('[') || value === 'false' ? value : JSON.stringify(value)}`)
    .join('\n');
  await mkdir(path.join(root, language), { recursive: true });
  await writeFile(path.join(root, language, `${slug}.md`), `---\n${yaml}\n---\n\n${body}\n`);
}

const sync = async () => syncBlogFiles(db(), await readBlogFiles(root));
const bySlug = async (language: 'en' | 'tr', slug: string): Promise<BlogPost | undefined> =>
  (await listAllPosts()).find((post) => post.language === language && post.slug === slug);

const input = (post: BlogPost, overrides: Partial<BlogPostInput> = {}): BlogPostInput => ({ ...post, ...overrides });

describe('content/blog files synced into the database', () => {
  it('adds new files once, linked as translations, and a second start changes nothing', async () => {
    await writePost('en', 'first-article', {}, 'English body.');
    await writePost('tr', 'ilk-yazi', { title: 'İlk Yazı' }, 'Türkçe gövde.');
    expect(await sync()).toEqual({ added: 2, updated: 0, differing: 0, tombstoned: 0 });
    expect(await sync()).toEqual({ added: 0, updated: 0, differing: 0, tombstoned: 0 });
    expect((await listAllPosts()).map((post) => post.slug).sort()).toEqual(['first-article', 'ilk-yazi']);

    const english = (await findPublishedPost('en', 'first-article'))!;
    expect(english).toMatchObject({ title: 'Title of first-article', content: 'English body.', fileDiffers: false });
    expect(english.publishedAt?.toISOString()).toBe('2026-01-05T00:00:00.000Z');
    expect((await findTranslations(english)).map((post) => post.slug)).toEqual(['ilk-yazi']);
  });

  it('updates a post nobody edited when its file changes, keeping its publish state and date', async () => {
    const before = (await bySlug('en', 'first-article'))!;
    okValue(await setBlogPostPublished(before.id, false));
    await writePost('en', 'first-article', { title: 'A better title' }, 'Improved body.');
    expect(await sync()).toMatchObject({ updated: 1 });
    const after = (await getPost(before.id))!;
    expect(after).toMatchObject({ title: 'A better title', content: 'Improved body.', published: false, fileDiffers: false });
    expect(after.publishedAt).toEqual(before.publishedAt);
    okValue(await setBlogPostPublished(before.id, true));
    expect((await getPost(before.id))!.publishedAt).toEqual(before.publishedAt);
  });

  it('never overwrites a post edited here; the admin sees the file differs and can take its version', async () => {
    const post = (await bySlug('tr', 'ilk-yazi'))!;
    okValue(await updateBlogPost(post.id, input(post, { title: 'Burada Düzenlendi', publishedAt: null })));
    expect((await getPost(post.id))!.fileDiffers).toBe(true);

    await writePost('tr', 'ilk-yazi', { title: 'Dosyada Yeni Başlık' }, 'Yeni gövde.');
    expect(await sync()).toMatchObject({ updated: 0, differing: 1 });
    expect(await getPost(post.id)).toMatchObject({ title: 'Burada Düzenlendi', fileDiffers: true });

    const taken = okValue(await takeFileVersion(post.id));
    expect(taken).toMatchObject({ title: 'Dosyada Yeni Başlık', content: 'Yeni gövde.', fileDiffers: false, published: true });
    // It follows its file again.
    await writePost('tr', 'ilk-yazi', { title: 'Dosyada Daha Yeni' }, 'Yeni gövde.');
    expect(await sync()).toMatchObject({ updated: 1 });
    expect((await getPost(post.id))!.title).toBe('Dosyada Daha Yeni');
  });

  it('counts a database post that already shadowed a file as edited here: never republished or overwritten', async () => {
    const shadow = okValue(
      await createBlogPost({
        slug: 'shadowed',
        language: 'en',
        title: 'Taken down by an editor',
        excerpt: 'x',
        content: 'Editor text.',
        author: 'Editor',
        cover: '/images/blog/budget-basics.svg',
        coverAlt: 'decorative',
        tags: [],
        published: false,
      }),
    );
    await writePost('en', 'shadowed', { translationKey: 'other' }, 'File text.');
    expect(await sync()).toMatchObject({ added: 0, differing: 1 });
    expect(await getPost(shadow.id)).toMatchObject({ title: 'Taken down by an editor', published: false, fileDiffers: true });
    expect(await findPublishedPost('en', 'shadowed')).toBeUndefined();
  });

  it('does not bring back a file-born post deleted here, at any later start', async () => {
    const post = (await bySlug('en', 'first-article'))!;
    okValue(await deleteBlogPost(post.id));
    expect(await sync()).toMatchObject({ added: 0, tombstoned: 1 });
    await writePost('en', 'first-article', { title: 'Changed after the delete' });
    expect(await sync()).toMatchObject({ added: 0, tombstoned: 1 });
    expect(await bySlug('en', 'first-article')).toBeUndefined();
  });

  it('does not bring a file back as a second post when its post moved to another slug', async () => {
    await writePost('tr', 'tasinan-yazi', { translationKey: 'moved' });
    expect(await sync()).toMatchObject({ added: 1 });
    const post = (await bySlug('tr', 'tasinan-yazi'))!;
    okValue(await updateBlogPost(post.id, input(post, { slug: 'yeni-adres', publishedAt: null })));
    expect(await sync()).toMatchObject({ added: 0 });
    expect((await listAllPosts()).filter((candidate) => candidate.translationKey === 'moved').map((item) => item.slug)).toEqual([
      'yeni-adres',
    ]);
    expect((await getPost(post.id))!.fileDiffers).toBe(false);
  });

  it('refuses a file with broken front matter, naming it', async () => {
    const broken = await mkdtemp(path.join(tmpdir(), 'blog-broken-'));
    await mkdir(path.join(broken, 'en'));
    await writeFile(path.join(broken, 'en', 'bad.md'), '---\nslug: "Not A Slug"\n---\nbody');
    await expect(readBlogFiles(broken)).rejects.toThrow(/bad\.md: .*slug/);
    await rm(broken, { recursive: true, force: true });
  });

  it('syncs the shipped articles: four per language, linked in pairs', async () => {
    const files = await readBlogFiles();
    await syncBlogFiles(db(), files);
    for (const language of ['en', 'tr'] as const) {
      const slugs = new Set(files.filter((file) => file.language === language).map((file) => file.slug));
      const shipped = (await listPublishedPosts(language)).filter((post) => slugs.has(post.slug));
      expect(shipped, language).toHaveLength(4);
      for (const post of shipped) expect((await findTranslations(post)).length, post.slug).toBe(1);
    }
  });
});

describe('publish dates and scheduling', () => {
  const fields = (slug: string, overrides: Partial<BlogPostInput> = {}): BlogPostInput => ({
    slug,
    language: 'en',
    title: slug,
    excerpt: 'x',
    content: 'y',
    author: 'z',
    cover: '/images/blog/budget-basics.svg',
    coverAlt: 'decorative',
    tags: [],
    published: false,
    ...overrides,
  });

  it('dates a post at its first publish, keeps the date on edits, and lets the editor move it', async () => {
    const draft = okValue(await createBlogPost(fields('dated-post')));
    expect(draft.publishedAt).toBeNull();
    const published = okValue(await setBlogPostPublished(draft.id, true));
    expect(published.publishedAt).toBeInstanceOf(Date);
    const edited = okValue(await updateBlogPost(draft.id, fields('dated-post', { title: 'Edited', published: true })));
    expect(edited.publishedAt).toEqual(published.publishedAt);
    const moved = new Date('2025-03-01T09:30:00Z');
    expect(
      okValue(await updateBlogPost(draft.id, fields('dated-post', { published: true, publishedAt: moved }))).publishedAt,
    ).toEqual(moved);
    const order = (await listPublishedPosts('en')).map((post) => post.slug);
    expect(order.indexOf('dated-post')).toBe(order.length - 1);
  });

  it('hides a scheduled post until its time, then announces it once, whichever instance ticks', async () => {
    await announceDuePosts(db());
    const at = new Date(Date.now() + 1500);
    const scheduled = okValue(await createBlogPost(fields('scheduled-post', { published: true, publishedAt: at })));
    expect(await findPublishedPost('en', 'scheduled-post')).toBeUndefined();
    expect(await announceDuePosts(db())).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, at.getTime() - Date.now() + 100));
    expect((await findPublishedPost('en', 'scheduled-post'))?.id).toBe(scheduled.id);
    // Two instances ticking at once: the clock row admits one announcement.
    const counts = await Promise.all([announceDuePosts(db()), announceDuePosts(db())]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(await announceDuePosts(db())).toBe(0);
  });
});
