import { sql, type Selectable } from 'kysely';
import { db } from '../db/database.ts';
import type { BlogPostsTable } from '../db/schema.ts';
import { asLanguage, LANGUAGES, type Language } from '../../src/i18n/languages.ts';
import { SLUG_PATTERN } from '../../src/lib/blog.schema.ts';
import { FileVersionSchema, type FileVersion } from './blog-file.ts';

/**
 * The blog: one table, `blog_posts`, written by the admin and by the sync of content/blog files
 * (sync.ts). Readers see a post when it is published and its publish time has come. What readers
 * see is here; the admin's use cases are in admin.ts.
 */
export interface BlogPost {
  id: string;
  slug: string;
  language: Language;
  translationKey: string | null;
  title: string;
  excerpt: string;
  content: string;
  author: string;
  /** What readers see as its date: when it went (or goes) public, else when it was written. */
  date: Date;
  /** NULL: never published. Later than now with `published`: scheduled. */
  publishedAt: Date | null;
  cover: string;
  /** What the cover shows; `decorative` for none; empty for posts older than the field. */
  coverAlt: string;
  tags: string[];
  published: boolean;
  seoTitle: string | null;
  metaDescription: string | null;
  tldr: string | null;
  ctaText: string | null;
  ctaLink: string | null;
  /** A post with a file in content/blog whose text differs from the post's (edited here). */
  fileDiffers: boolean;
  updatedAt: Date;
}

export type BlogPostStatus = 'draft' | 'scheduled' | 'published';

export function postStatus(post: Pick<BlogPost, 'published' | 'publishedAt'>, now = new Date()): BlogPostStatus {
  if (!post.published) return 'draft';
  return post.publishedAt && post.publishedAt > now ? 'scheduled' : 'published';
}

const visible = sql<boolean>`is_published AND published_at <= now()`;

/** What readers see in a language, newest publish date first. */
export async function listPublishedPosts(language: Language): Promise<BlogPost[]> {
  const rows = await db()
    .selectFrom('blog_posts')
    .selectAll()
    .where('language', '=', language)
    .where(visible)
    .orderBy('published_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toPost);
}

/** A post readers may open, by language and slug. */
export async function findPublishedPost(language: Language, slug: string): Promise<BlogPost | undefined> {
  if (!SLUG_PATTERN.test(slug) || slug.length > 120) return undefined;
  const row = await db()
    .selectFrom('blog_posts')
    .selectAll()
    .where('language', '=', language)
    .where('slug', '=', slug)
    .where(visible)
    .executeTakeFirst();
  return row ? toPost(row) : undefined;
}

/** The same article in the other languages, where readers can open it. */
export async function findTranslations(post: Pick<BlogPost, 'translationKey' | 'language'>): Promise<BlogPost[]> {
  if (!post.translationKey) return [];
  const rows = await db()
    .selectFrom('blog_posts')
    .selectAll()
    .where('translation_key', '=', post.translationKey)
    .where(
      'language',
      'in',
      LANGUAGES.filter((code) => code !== post.language),
    )
    .where(visible)
    .orderBy('language')
    .execute();
  return rows.map(toPost);
}

/** The columns a file's version fills (its text, never its publish state). */
export function fileRow(version: FileVersion) {
  return {
    translation_key: version.translationKey,
    title: version.title,
    excerpt: version.excerpt,
    content: version.content,
    author_name: version.author,
    cover_image_url: version.cover,
    cover_alt: version.coverAlt,
    tags: version.tags,
    seo_title: version.seoTitle,
    meta_description: version.metaDescription,
    tldr: version.tldr,
    cta_text: version.ctaText,
    cta_link: version.ctaLink,
  };
}

/** Whether the post's text is other than its file's (the sync's copy of the file, not the disk). */
function differsFromFile(row: Selectable<BlogPostsTable>): boolean {
  const version = FileVersionSchema.safeParse(row.file_version);
  if (!version.success) return false;
  const file = fileRow(version.data);
  return (Object.keys(file) as (keyof typeof file)[]).some(
    (column) => JSON.stringify(file[column]) !== JSON.stringify(row[column]),
  );
}

export function toPost(row: Selectable<BlogPostsTable>): BlogPost {
  return {
    id: row.id,
    slug: row.slug,
    language: asLanguage(row.language),
    translationKey: row.translation_key,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    author: row.author_name,
    date: row.published_at ?? row.created_at,
    publishedAt: row.published_at,
    cover: row.cover_image_url,
    coverAlt: row.cover_alt,
    tags: row.tags,
    published: row.is_published,
    seoTitle: row.seo_title,
    metaDescription: row.meta_description,
    tldr: row.tldr,
    ctaText: row.cta_text,
    ctaLink: row.cta_link,
    fileDiffers: row.edited_here && row.file_hash !== null && differsFromFile(row),
    updatedAt: row.updated_at,
  };
}
