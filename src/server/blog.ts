import { getCollection, type CollectionEntry } from 'astro:content';
import { databaseSlugs, findDatabasePost, listDatabasePosts, type BlogPost } from '../../functions/blog/blog.ts';
import { demoCourseId } from '../../functions/seed/demo-ids.ts';
import { LANGUAGES, type Language } from '../i18n/languages.ts';
import { SLUG_PATTERN } from '../lib/blog.schema.ts';

/**
 * One blog per language from two sources: Markdown files (content/blog) and database posts (admin).
 * A database post with a file's slug replaces that file, published or not, so an editor can also
 * take a shipped article down.
 */
export async function listPublishedPosts(lang: Language): Promise<BlogPost[]> {
  const [files, database, overridden] = await Promise.all([filePosts(lang), listDatabasePosts(lang), databaseSlugs(lang)]);
  return [...files.filter((post) => !overridden.has(post.slug)), ...database].sort((a, b) => b.date.getTime() - a.date.getTime());
}

export async function findPublishedPost(lang: Language, slug: string): Promise<BlogPost | undefined> {
  if (!SLUG_PATTERN.test(slug) || slug.length > 120) return undefined;
  const database = await findDatabasePost(lang, slug);
  if (database) return database.published ? database : undefined;
  return (await filePosts(lang)).find((post) => post.slug === slug);
}

/** The same article in the other languages, where it exists and is published. */
export async function findTranslations(post: BlogPost): Promise<BlogPost[]> {
  const key = post.translationKey;
  if (!key) return [];
  const others = LANGUAGES.filter((code) => code !== post.language);
  const found = await Promise.all(
    others.map(async (code) => (await listPublishedPosts(code)).find((candidate) => candidate.translationKey === key)),
  );
  return found.filter((translation) => translation !== undefined);
}

async function filePosts(lang: Language): Promise<BlogPost[]> {
  const entries = await getCollection('blog', (entry) => entry.id.startsWith(`${lang}/`) && entry.data.published);
  return entries.map((entry) => fromFile(entry, lang));
}

function fromFile(entry: CollectionEntry<'blog'>, lang: Language): BlogPost {
  const data = entry.data;
  return {
    source: 'file',
    id: entry.id,
    slug: data.slug,
    language: lang,
    translationKey: data.translationKey ?? null,
    title: data.title,
    excerpt: data.excerpt,
    content: entry.body ?? '',
    author: data.author,
    date: data.date,
    cover: data.cover,
    coverAlt: data.coverAlt,
    tags: data.tags,
    published: data.published,
    seoTitle: data.seoTitle ?? null,
    metaDescription: data.metaDescription ?? null,
    tldr: data.tldr ?? null,
    ctaText: data.ctaText ?? null,
    // Articles point at demo courses by key; ids are derived from keys.
    ctaLink: data.ctaLink?.replace(/\{\{course:([a-z0-9-]+)\}\}/g, (_, key: string) => demoCourseId(key)) ?? null,
  };
}
