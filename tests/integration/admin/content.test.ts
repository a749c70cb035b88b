import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '../../../src/lib/result.ts';
import {
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  setCategoryActive,
  updateCategory,
  type CategoryInput,
} from '../../../functions/courses/admin-categories.ts';
import { createBlogPost, getPost, listAllPosts, type BlogPostInput } from '../../../functions/blog/admin.ts';
import { db } from '../../../functions/db/database.ts';
import { announceChange, listenForChanges } from '../../../functions/http/cache-notify.ts';
import { makeCourse, okValue } from '../../support/factories.ts';

/** Every purge the use cases announce, as the page cache would hear them. */
const heard: string[] = [];
let listener: { stop(): Promise<void> };
let markers = 0;

/** Sends a marker and waits for it: PostgreSQL delivers notifications in commit order, so all earlier ones have arrived. */
async function settle(): Promise<string> {
  const marker = `marker-${markers++}`;
  for (let attempt = 0; attempt < 100 && !heard.includes(marker); attempt++) {
    // The first LISTEN starts asynchronously: repeat until heard.
    if (attempt % 10 === 0) await announceChange(db(), marker);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!heard.includes(marker)) throw new Error('the purge listener heard nothing');
  return marker;
}

beforeAll(async () => {
  listener = listenForChanges(process.env.DATABASE_URL!, (tag) => heard.push(tag));
  await settle();
});
afterAll(() => listener.stop());

async function purgesDuring(action: () => Promise<unknown>): Promise<string[]> {
  await settle();
  heard.length = 0;
  await action();
  const end = await settle();
  return heard.slice(0, heard.indexOf(end)).filter((tag) => !tag.startsWith('marker-'));
}

const category = (overrides: Partial<CategoryInput> = {}): CategoryInput => ({
  slug: 'cooking',
  names: { en: 'Cooking', tr: 'Yemek' },
  descriptions: { en: '', tr: '' },
  color: '#3B82F6',
  icon: 'BookOpen',
  active: true,
  sortOrder: 0,
  ...overrides,
});

describe('category use cases', () => {
  it('announce the catalogue purge on every write, and not on a refused delete', async () => {
    let id = '';
    expect(await purgesDuring(async () => (id = okValue(await createCategory(category())).id))).toEqual(['catalogue']);
    expect(await purgesDuring(() => updateCategory(id, category({ names: { en: 'Cookery', tr: 'Yemek' } })))).toEqual([
      'catalogue',
    ]);
    expect(await purgesDuring(() => setCategoryActive(id, false))).toEqual(['catalogue']);
    await makeCourse({ category: 'cooking' });
    let refused: Awaited<ReturnType<typeof deleteCategory>> | undefined;
    expect(await purgesDuring(async () => (refused = await deleteCategory(id)))).toEqual([]);
    expect(refused).toMatchObject({ ok: false, error: 'conflict', code: 'dependencies', details: { courseCount: 1 } });
    expect(await getCategory(id)).toMatchObject({ names: { en: 'Cookery', tr: 'Yemek' }, active: false, courseCount: 1 });
  });

  it('move courses along with a new slug, and delete an unused category', async () => {
    const created = okValue(
      await createCategory(category({ slug: 'gardening', names: { en: 'Gardening', tr: 'Bahçe' }, sortOrder: 1 })),
    );
    const course = await makeCourse({ category: 'gardening' });
    await updateCategory(
      created.id,
      category({ slug: 'garden-care', names: { en: 'Garden care', tr: 'Bahçe bakımı' }, sortOrder: 1 }),
    );
    expect(
      (await db().selectFrom('courses').select('category').where('id', '=', course.id).executeTakeFirstOrThrow()).category,
    ).toBe('garden-care');

    const unused = okValue(await createCategory(category({ slug: 'unused', sortOrder: 2 })));
    expect(await purgesDuring(() => deleteCategory(unused.id))).toEqual(['catalogue']);
    expect(await getCategory(unused.id)).toBeUndefined();
    expect(await deleteCategory(unused.id)).toEqual(notFound);
    expect(await deleteCategory('not-a-uuid')).toEqual(notFound);
    expect((await listCategories()).map((item) => item.sortOrder)).toEqual([0, 1]);
  });
});

const post = (overrides: Partial<BlogPostInput> = {}): BlogPostInput => ({
  slug: 'a-post',
  language: 'tr',
  title: 'Işıklı Başlık',
  excerpt: 'Özet',
  content: 'İçerik',
  author: 'Şule Yazar',
  cover: '/images/blog/budget-basics.svg',
  coverAlt: 'A notebook with a simple monthly budget',
  tags: [],
  published: false,
  ...overrides,
});

describe('blog admin queries', () => {
  it('list drafts and published posts of both languages, newest first, with a Turkish-aware search', async () => {
    const first = okValue(await createBlogPost(post()));
    const second = okValue(
      await createBlogPost(
        post({ slug: 'english-post', language: 'en', title: 'English 100% Post', author: 'Sam', published: true }),
      ),
    );
    expect((await listAllPosts()).map((item) => item.id)).toEqual([second.id, first.id]);
    expect((await listAllPosts({ search: 'IŞIKLI' })).map((item) => item.id)).toEqual([first.id]);
    expect((await listAllPosts({ search: 'şule' })).map((item) => item.id)).toEqual([first.id]);
    expect((await listAllPosts({ search: 'english-post' })).map((item) => item.id)).toEqual([second.id]);
    expect((await listAllPosts({ search: '100%' })).map((item) => item.id)).toEqual([second.id]);
    expect(await listAllPosts({ search: '_%' })).toEqual([]);
    expect(await getPost(first.id)).toMatchObject({ title: 'Işıklı Başlık', published: false });
    expect(await getPost('nope')).toBeUndefined();
  });
});
