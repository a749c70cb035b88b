import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import { db } from '../db/database.ts';
import type { BlogPostsTable } from '../db/schema.ts';
import { announceChange } from '../http/cache-notify.ts';
import { BLOG_TAG } from '../http/cache-rules.ts';
import { asLanguage, type Language } from '../../src/i18n/languages.ts';
import { conflict, notFound, ok, type Result } from '../../src/lib/result.ts';
import { refusingViolations } from '../db/constraints.ts';

/** A post as pages use it, whichever source it comes from (content file or database). */
export interface BlogPost {
  source: 'file' | 'database';
  id: string;
  slug: string;
  language: Language;
  translationKey: string | null;
  title: string;
  excerpt: string;
  content: string;
  author: string;
  date: Date;
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
}

export interface BlogPostInput {
  slug: string;
  language: Language;
  translationKey?: string | null | undefined;
  title: string;
  excerpt: string;
  content: string;
  author: string;
  cover: string;
  coverAlt: string;
  tags: string[];
  published: boolean;
  seoTitle?: string | null | undefined;
  metaDescription?: string | null | undefined;
  tldr?: string | null | undefined;
  ctaText?: string | null | undefined;
  ctaLink?: string | null | undefined;
}

/** Database posts in a language (published only unless asked), newest first. */
export async function listDatabasePosts(language: Language, { includeDrafts = false } = {}): Promise<BlogPost[]> {
  let query = db().selectFrom('blog_posts').selectAll().where('language', '=', language).orderBy('created_at', 'desc');
  if (!includeDrafts) query = query.where('is_published', '=', true);
  return (await query.execute()).map(toPost);
}

/**
 * Every database post of both languages, drafts included, newest first, for the admin. `search`
 * matches title, author or slug, ignoring case and Turkish letters (İ/ı/ş… fold like the catalogue).
 */
export async function listAllDatabasePosts({ search = '' }: { search?: string } = {}): Promise<BlogPost[]> {
  let query = db().selectFrom('blog_posts').selectAll().orderBy('created_at', 'desc').orderBy('id');
  const term = search.trim();
  if (term) {
    const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where(sql<boolean>`fold_search(title || ' ' || author_name || ' ' || slug) LIKE fold_search(${pattern})`);
  }
  return (await query.execute()).map(toPost);
}

const Uuid = z.uuid();
const isPostId = (id: string) => Uuid.safeParse(id).success;

/** One database post by id, published or not; undefined for an unknown (or malformed) id. */
export async function getDatabasePost(id: string): Promise<BlogPost | undefined> {
  if (!isPostId(id)) return undefined;
  const row = await db().selectFrom('blog_posts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPost(row) : undefined;
}

/** A database post by language and slug, published or not: a draft with a file's slug hides the file. */
export async function findDatabasePost(language: Language, slug: string): Promise<BlogPost | undefined> {
  const row = await db()
    .selectFrom('blog_posts')
    .selectAll()
    .where('language', '=', language)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row ? toPost(row) : undefined;
}

/** Slugs of database posts (any state) in a language, to know which files they override. */
export async function databaseSlugs(language: Language): Promise<Set<string>> {
  const rows = await db().selectFrom('blog_posts').select('slug').where('language', '=', language).execute();
  return new Set(rows.map((row) => row.slug));
}

const SLUG_TAKEN = conflict('duplicate', 'admin.errors.duplicate', { fields: { slug: 'admin.errors.duplicate' } });

/** Every write below tells the page cache in the same transaction: readers see it at once. */
export async function createBlogPost(input: BlogPostInput): Promise<Result<BlogPost>> {
  return refusingViolations(
    () =>
      db()
        .transaction()
        .execute(async (trx) => {
          const row = await trx.insertInto('blog_posts').values(toRow(input)).returningAll().executeTakeFirstOrThrow();
          await announceChange(trx, BLOG_TAG);
          return ok(toPost(row));
        }),
    { unique: SLUG_TAKEN },
  );
}

export async function updateBlogPost(id: string, input: BlogPostInput): Promise<Result<BlogPost>> {
  if (!isPostId(id)) return notFound;
  return refusingViolations(
    () =>
      db()
        .transaction()
        .execute(async (trx) => {
          const row = await trx
            .updateTable('blog_posts')
            .set({ ...toRow(input), updated_at: new Date() })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst();
          if (!row) return notFound;
          await announceChange(trx, BLOG_TAG);
          return ok(toPost(row));
        }),
    { unique: SLUG_TAKEN },
  );
}

export async function setBlogPostPublished(id: string, published: boolean): Promise<Result<BlogPost>> {
  if (!isPostId(id)) return notFound;
  return db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .updateTable('blog_posts')
        .set({ is_published: published, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) return notFound;
      await announceChange(trx, BLOG_TAG);
      return ok(toPost(row));
    });
}

export async function deleteBlogPost(id: string): Promise<Result<{ deleted: true }>> {
  if (!isPostId(id)) return notFound;
  return db()
    .transaction()
    .execute(async (trx) => {
      const result = await trx.deleteFrom('blog_posts').where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return notFound;
      await announceChange(trx, BLOG_TAG);
      return ok({ deleted: true } as const);
    });
}

function toRow(input: BlogPostInput) {
  return {
    slug: input.slug,
    language: input.language,
    translation_key: input.translationKey ?? null,
    title: input.title,
    excerpt: input.excerpt,
    content: input.content,
    author_name: input.author,
    cover_image_url: input.cover,
    cover_alt: input.coverAlt,
    tags: input.tags,
    is_published: input.published,
    seo_title: input.seoTitle ?? null,
    meta_description: input.metaDescription ?? null,
    tldr: input.tldr ?? null,
    cta_text: input.ctaText ?? null,
    cta_link: input.ctaLink ?? null,
  };
}

function toPost(row: Selectable<BlogPostsTable>): BlogPost {
  return {
    source: 'database',
    id: row.id,
    slug: row.slug,
    language: asLanguage(row.language),
    translationKey: row.translation_key,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    author: row.author_name,
    date: row.created_at,
    cover: row.cover_image_url,
    coverAlt: row.cover_alt,
    tags: row.tags,
    published: row.is_published,
    seoTitle: row.seo_title,
    metaDescription: row.meta_description,
    tldr: row.tldr,
    ctaText: row.cta_text,
    ctaLink: row.cta_link,
  };
}
