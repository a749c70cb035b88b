import { sql, type Selectable, type Transaction } from 'kysely';
import { db } from '../db/database.ts';
import type { BlogPostsTable, Database } from '../db/schema.ts';
import { announceChange } from '../http/cache-notify.ts';
import { BLOG_TAG } from '../http/cache-rules.ts';
import { asLanguage, LANGUAGES, type Language } from '../../src/i18n/languages.ts';
import { SLUG_PATTERN } from '../../src/lib/blog.schema.ts';
import { conflict, notFound, ok, type Result } from '../../src/lib/result.ts';
import { refusingViolations } from '../db/constraints.ts';
import { FileVersionSchema, type FileVersion } from './blog-file.ts';
import { isUuid } from '../../src/lib/uuid.ts';

/**
 * The blog: one table, `blog_posts`, written by the admin and by the sync of content/blog files
 * (sync.ts). Readers see a post when it is published and its publish time has come.
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

/** Whether the post's text is other than its file's (the sync's copy of the file, not the disk). */
function differsFromFile(row: Selectable<BlogPostsTable>): boolean {
  const version = FileVersionSchema.safeParse(row.file_version);
  if (!version.success) return false;
  const file = fileRow(version.data);
  return (Object.keys(file) as (keyof typeof file)[]).some(
    (column) => JSON.stringify(file[column]) !== JSON.stringify(row[column]),
  );
}

function toPost(row: Selectable<BlogPostsTable>): BlogPost {
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
