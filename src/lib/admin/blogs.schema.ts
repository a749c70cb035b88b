import { z } from '../zod.ts';
import { LANGUAGES, type Language } from '../../i18n/languages.ts';
import { META_DESCRIPTION_MAX, slugify } from '../blog.schema.ts';
import { text } from '../validation.ts';

/**
 * The admin blog form, checked by the same schema in the editor and on the server (client-safe;
 * messages are translation keys). Posts are Markdown; the server sanitizes what it renders.
 */

export const TITLE_MAX = 200;
export const EXCERPT_MAX = 500;
/** Leaves room for the other fields inside the 64 KB JSON body limit. */
export const CONTENT_MAX = 60_000;
/**
 * A post's request body at its longest: 60,000 characters of any script are up to 180 KB of UTF-8,
 * twice that where JSON escapes them (a body counted in bytes must not refuse a long Turkish post).
 */
export const POST_BODY_MAX_BYTES = 400 * 1024;
export const SEARCH_MAX = 200;
export const COVER_ALT_MAX = 300;

/** The alt text that marks an image as decoration only: it is published with an empty alt. */
export const DECORATIVE_ALT = /^(decorative|dekoratif)$/i;

/**
 * Images in a post's Markdown (`![alt](src)`) or HTML (`<img>`) with no description: a screen
 * reader would read nothing, or the file name. An image that is decoration only says so in its alt.
 */
export function imagesWithoutAlt(content: string): number {
  const markdown = [...content.matchAll(/!\[([^\]]*)\]\(/g)].filter((match) => !match[1]!.trim()).length;
  const html = [...content.matchAll(/<img\b[^>]*>/gi)].filter(
    (match) => !/\balt\s*=\s*("[^"]*\S[^"]*"|'[^']*\S[^']*'|[^\s"'>]+)/i.test(match[0]),
  ).length;
  return markdown + html;
}

/** http(s) addresses, or paths on this site (not `//host`, which would leave it). */
const LINK_PATTERN = /^(https?:\/\/[^\s/]+\S*|\/(?!\/)\S*)$/i;

const required = (message: string, max: number) => text(message).trim().min(1, message).max(max, 'validation.tooLong');
const optional = (max: number, tooLong = 'validation.tooLong') =>
  text('errors.badRequest')
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((value) => value || null);

/** "a, b,, c" or ["a", "b"]: trimmed, empties dropped, duplicates removed. */
export const TagsSchema = z
  .union(
    [
      text('errors.badRequest').max(1000, 'validation.tooLong'),
      z.array(text('errors.badRequest').max(100, 'validation.tooLong')).max(50, 'validation.tooLong'),
    ],
    'errors.badRequest',
  )
  .default('')
  .transform((value) => [...new Set((Array.isArray(value) ? value : value.split(',')).map((tag) => tag.trim()).filter(Boolean))])
  .refine((tags) => tags.every((tag) => tag.length <= 60), 'validation.tooLong');

export const BlogPostSchema = z
  .object(
    {
      title: required('admin.blogs.titleRequired', TITLE_MAX),
      // Blank: made from the title. Either way it goes through slugify, so what is stored is what the editor showed.
      slug: text('errors.badRequest').trim().max(TITLE_MAX, 'validation.tooLong').default(''),
      excerpt: required('admin.blogs.excerptRequired', EXCERPT_MAX),
      content: required('admin.blogs.contentRequired', CONTENT_MAX).refine(
        (content) => imagesWithoutAlt(content) === 0,
        'admin.blogs.imageAltMissing',
      ),
      author: required('admin.blogs.authorRequired', 200),
      cover: required('admin.blogs.coverRequired', 500).regex(LINK_PATTERN, 'admin.blogs.coverInvalid'),
      coverAlt: required('admin.blogs.coverAltRequired', COVER_ALT_MAX),
      tags: TagsSchema,
      language: z.enum(LANGUAGES, 'errors.badRequest'),
      translationKey: optional(120),
      seoTitle: optional(TITLE_MAX),
      metaDescription: optional(META_DESCRIPTION_MAX, 'admin.blogs.metaTooLong'),
      tldr: optional(1000),
      ctaText: optional(200),
      ctaLink: optional(500).refine((value) => value === null || LINK_PATTERN.test(value), 'admin.blogs.ctaLinkInvalid'),
      published: z.boolean('errors.badRequest').default(false),
      // Empty: kept as it is (now, on the first publish). The editor's local time becomes an instant
      // in the browser (`new Date`), so the server receives ISO time with its zone.
      publishedAt: text('errors.badRequest')
        .trim()
        .max(40, 'validation.tooLong')
        .nullish()
        .transform((value) => (value ? new Date(value) : null))
        .refine((value) => value === null || !Number.isNaN(value.getTime()), 'admin.blogs.publishedAtInvalid'),
    },
    'errors.badRequest',
  )
  .superRefine((post, context) => {
    // The article shows its call to action only with both parts; one alone would vanish silently.
    if (post.ctaText && !post.ctaLink)
      context.addIssue({ code: 'custom', path: ['ctaLink'], message: 'admin.blogs.ctaIncomplete' });
    if (post.ctaLink && !post.ctaText)
      context.addIssue({ code: 'custom', path: ['ctaText'], message: 'admin.blogs.ctaIncomplete' });
  })
  .transform((post, context) => {
    const slug = slugify(post.slug || post.title);
    if (!slug) {
      context.addIssue({ code: 'custom', path: ['slug'], message: 'admin.blogs.slugRequired' });
      return z.NEVER;
    }
    return { ...post, slug };
  });

export type BlogPostForm = z.input<typeof BlogPostSchema>;
export type BlogPostData = z.output<typeof BlogPostSchema>;

/** The slug a post will get: the typed one (tidied), else one made from the title. */
export function effectiveSlug(slug: string, title: string): string {
  return slugify(slug.trim() || title);
}

export const BlogPublishedSchema = z.object({ published: z.boolean('errors.badRequest') });

/** A blog image upload's purpose: a cover (cut to 1200 × 630) or an image inside the article. */
export const BlogImageKindSchema = z.enum(['cover', 'inline'], 'errors.badRequest');

export const BlogPreviewSchema = z.object({ content: text('errors.badRequest').max(CONTENT_MAX, 'validation.tooLong') });

/** What the admin list shows of a post (no content: it can be long). */
export interface AdminPostRow {
  id: string;
  title: string;
  slug: string;
  language: Language;
  author: string;
  published: boolean;
  status: 'draft' | 'scheduled' | 'published';
  /** ISO date: the publish date, else the creation date. */
  date: string;
  /** ISO; null: never published. */
  publishedAt: string | null;
  /** Edited here, and its content/blog file says something else. */
  fileDiffers: boolean;
}

/** A post as the editor loads it. */
export interface AdminPost extends AdminPostRow {
  excerpt: string;
  content: string;
  cover: string;
  coverAlt: string;
  tags: string[];
  translationKey: string | null;
  seoTitle: string | null;
  metaDescription: string | null;
  tldr: string | null;
  ctaText: string | null;
  ctaLink: string | null;
  /** ISO: the last save, to tell a browser's kept copy from what the server has. */
  updatedAt: string;
}
