import type { AdminCategory } from '../../functions/courses/admin-categories.ts';
import { postStatus, type BlogPost } from '../../functions/blog/blog.ts';
import type { AdminPost, AdminPostRow } from '../lib/admin/blogs.schema.ts';
import type { AdminCategoryRow } from '../lib/admin/categories.schema.ts';

/** What the blog and category admin islands receive: small, serialisable, never database rows. */
export function toAdminPostRow(post: BlogPost): AdminPostRow {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    language: post.language,
    author: post.author,
    published: post.published,
    status: postStatus(post),
    date: post.date.toISOString(),
    publishedAt: post.publishedAt?.toISOString() ?? null,
    fileDiffers: post.fileDiffers,
  };
}

export function toAdminPost(post: BlogPost): AdminPost {
  return {
    ...toAdminPostRow(post),
    excerpt: post.excerpt,
    content: post.content,
    cover: post.cover,
    coverAlt: post.coverAlt,
    tags: post.tags,
    translationKey: post.translationKey,
    seoTitle: post.seoTitle,
    metaDescription: post.metaDescription,
    tldr: post.tldr,
    ctaText: post.ctaText,
    ctaLink: post.ctaLink,
    updatedAt: post.updatedAt.toISOString(),
  };
}

export function toAdminCategoryRow(category: AdminCategory): AdminCategoryRow {
  const { createdAt: _created, updatedAt: _updated, ...row } = category;
  return row;
}
