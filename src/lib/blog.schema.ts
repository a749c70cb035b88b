import { z } from './zod.ts';
import { foldTurkish } from './turkish.ts';

/** Blog posts, from either source, checked by one schema. Client-safe: the admin editor uses it too. */
export const META_DESCRIPTION_MAX = 160;
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const Link = z
  .string()
  .trim()
  .max(500)
  .refine((value) => /^(https?:\/\/|\/)/.test(value), 'validation.linkInvalid');

/** Front matter of content/blog/{en,tr}/*.md. */
export const BlogFrontMatterSchema = z.object({
  slug: z.string().regex(SLUG_PATTERN).max(120),
  translationKey: z.string().min(1).max(120).optional(),
  title: z.string().min(1).max(200),
  excerpt: z.string().min(1).max(500),
  author: z.string().min(1).max(200),
  date: z.coerce.date(),
  cover: z.string().min(1),
  /** What the cover shows, for screen readers; `decorative` for decoration only. */
  coverAlt: z.string().min(1).max(300),
  tags: z.array(z.string().min(1)).default([]),
  seoTitle: z.string().max(200).optional(),
  metaDescription: z.string().max(META_DESCRIPTION_MAX).optional(),
  tldr: z.string().optional(),
  ctaText: z.string().optional(),
  ctaLink: z.string().optional(),
  published: z.boolean().default(true),
});

export type BlogFrontMatter = z.infer<typeof BlogFrontMatterSchema>;

/** Turkish-aware slug: ş→s, ğ→g, ı/İ→i, ö→o, ü→u, ç→c; only letters, digits and single hyphens. */
export function slugify(text: string): string {
  return foldTurkish(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 120);
}

export { Link as BlogLinkSchema };
