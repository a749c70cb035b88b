import { sql, type Transaction } from 'kysely';
import { db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { announceChange } from '../http/cache-notify.ts';
import { BLOG_TAG } from '../http/cache-rules.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { conflict, notFound, ok, type Result } from '../../src/lib/result.ts';
import { refusingViolations } from '../db/constraints.ts';
import { FileVersionSchema } from './blog-file.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { fileRow, toPost, type BlogPost } from './blog.ts';

/** Admin → Blog: every post whatever its state, and the editor's writes. Readers' queries are in blog.ts. */
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
  /** Empty: kept as it is, or now on first publish. A future time with `published` schedules the post. */
  publishedAt?: Date | null | undefined;
  seoTitle?: string | null | undefined;
  metaDescription?: string | null | undefined;
  tldr?: string | null | undefined;
  ctaText?: string | null | undefined;
  ctaLink?: string | null | undefined;
}

/**
 * Every post of both languages, drafts and scheduled ones included, for the admin: newest (publish
 * date, else creation) first. `search` matches title, author or slug, ignoring case and Turkish
 * letters (İ/ı/ş… fold like the catalogue).
 */
export async function listAllPosts({ search = '' }: { search?: string } = {}): Promise<BlogPost[]> {
  let query = db()
    .selectFrom('blog_posts')
    .selectAll()
    .orderBy(sql`coalesce(published_at, created_at)`, 'desc')
    .orderBy('id');
  const term = search.trim();
  if (term) {
    const pattern = `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where(sql<boolean>`fold_search(title || ' ' || author_name || ' ' || slug) LIKE fold_search(${pattern})`);
  }
  return (await query.execute()).map(toPost);
}

/** One post by id, whatever its state; undefined for an unknown (or malformed) id. */
export async function getPost(id: string): Promise<BlogPost | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db().selectFrom('blog_posts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPost(row) : undefined;
}

const SLUG_TAKEN = conflict('duplicate', 'admin.errors.duplicate', { fields: { slug: 'admin.errors.duplicate' } });

/** Every write below tells the page cache in the same transaction: readers see it at once. */
export async function createBlogPost(input: BlogPostInput): Promise<Result<BlogPost>> {
  return refusingViolations(
    () =>
      db()
        .transaction()
        .execute(async (trx) => {
          const row = await trx
            .insertInto('blog_posts')
            .values({ ...toRow(input), published_at: input.publishedAt ?? (input.published ? new Date() : null) })
            .returningAll()
            .executeTakeFirstOrThrow();
          await announceChange(trx, BLOG_TAG);
          return ok(toPost(row));
        }),
    { unique: SLUG_TAKEN },
  );
}

/** An admin edit: the post is then "edited here", and its file (if any) never overwrites it. */
export async function updateBlogPost(id: string, input: BlogPostInput): Promise<Result<BlogPost>> {
  if (!isUuid(id)) return notFound;
  return refusingViolations(
    () =>
      db()
        .transaction()
        .execute(async (trx) => {
          const before = await trx
            .selectFrom('blog_posts')
            .select(['language', 'slug', 'file_hash', 'synced_hash'])
            .where('id', '=', id)
            .forUpdate()
            .executeTakeFirst();
          if (!before) return notFound;
          // A post moved away from its file's language and slug leaves the file behind for good:
          // the next sync must not bring the file back as a second copy of it.
          const leavesFile =
            (before.file_hash !== null || before.synced_hash !== null) &&
            (before.language !== input.language || before.slug !== input.slug);
          if (leavesFile) await tombstone(trx, before);
          const row = await trx
            .updateTable('blog_posts')
            .set({
              ...toRow(input),
              ...(leavesFile ? { file_hash: null, file_version: null } : {}),
              // Kept on later edits; set on the first publish; moved only when the editor moves it.
              published_at: input.publishedAt
                ? input.publishedAt
                : input.published
                  ? sql<Date>`coalesce(published_at, now())`
                  : sql<Date | null>`published_at`,
              edited_here: true,
              updated_at: new Date(),
            })
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

/** Published ⇄ draft. The first publish dates the post; later ones keep its date. */
export async function setBlogPostPublished(id: string, published: boolean): Promise<Result<BlogPost>> {
  if (!isUuid(id)) return notFound;
  return db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .updateTable('blog_posts')
        .set({
          is_published: published,
          published_at: published ? sql<Date>`coalesce(published_at, now())` : sql<Date | null>`published_at`,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) return notFound;
      await announceChange(trx, BLOG_TAG);
      return ok(toPost(row));
    });
}

/** Deletes a post; one that came from a file leaves a tombstone, so the next sync does not bring it back. */
export async function deleteBlogPost(id: string): Promise<Result<{ deleted: true }>> {
  if (!isUuid(id)) return notFound;
  return db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .deleteFrom('blog_posts')
        .where('id', '=', id)
        .returning(['language', 'slug', 'file_hash', 'synced_hash'])
        .executeTakeFirst();
      if (!row) return notFound;
      if (row.file_hash !== null || row.synced_hash !== null) await tombstone(trx, row);
      await announceChange(trx, BLOG_TAG);
      return ok({ deleted: true } as const);
    });
}

/** The file with this language and slug stays out of the blog at every later sync. */
async function tombstone(trx: Transaction<Database>, post: { language: string; slug: string }): Promise<void> {
  await trx
    .insertInto('blog_file_tombstones')
    .values({ language: post.language, slug: post.slug })
    .onConflict((conflict) => conflict.columns(['language', 'slug']).doNothing())
    .execute();
}

/**
 * "Take the file's version": a post edited here gets its file's text back and follows its file
 * again at later syncs. Its publish state and date stay the editor's.
 */
export async function takeFileVersion(id: string): Promise<Result<BlogPost>> {
  if (!isUuid(id)) return notFound;
  return db()
    .transaction()
    .execute(async (trx) => {
      const current = await trx
        .selectFrom('blog_posts')
        .select(['file_hash', 'file_version'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!current) return notFound;
      const version = FileVersionSchema.safeParse(current.file_version);
      if (!current.file_hash || !version.success) return conflict('no_file', 'admin.blogs.noFile');
      const row = await trx
        .updateTable('blog_posts')
        .set({ ...fileRow(version.data), edited_here: false, synced_hash: current.file_hash, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await announceChange(trx, BLOG_TAG);
      return ok(toPost(row));
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
