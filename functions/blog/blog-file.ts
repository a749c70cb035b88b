import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { demoCourseId } from '../seed/demo-ids.ts';
import { LANGUAGES, type Language } from '../../src/i18n/languages.ts';
import { BlogFrontMatterSchema } from '../../src/lib/blog.schema.ts';

/**
 * The articles shipped as Markdown under content/blog/{en,tr}. They are not served from the disk:
 * the sync (sync.ts) copies them into blog_posts, where editors own them like any other post.
 */
export const BLOG_CONTENT_DIR = 'content/blog';

/** What a file says about its post, as the sync stores it (`blog_posts.file_version`). */
export const FileVersionSchema = z.object({
  title: z.string(),
  excerpt: z.string(),
  content: z.string(),
  author: z.string(),
  cover: z.string(),
  coverAlt: z.string(),
  tags: z.array(z.string()),
  translationKey: z.string().nullable(),
  seoTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  tldr: z.string().nullable(),
  ctaText: z.string().nullable(),
  ctaLink: z.string().nullable(),
  /** ISO date: the publish date a new post takes from its file. */
  date: z.string(),
  published: z.boolean(),
});
export type FileVersion = z.infer<typeof FileVersionSchema>;

export interface BlogFile {
  language: Language;
  slug: string;
  /** sha256 of the file's bytes: a changed file has a new hash. */
  hash: string;
  version: FileVersion;
  /** For messages: where the file is. */
  path: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** One file's text as a post; a file that breaks the front-matter schema throws, naming the file. */
export function parseBlogFile(language: Language, file: string, text: string): BlogFile {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error(`${file}: no front matter (--- … ---) at the top`);
  const parsed = BlogFrontMatterSchema.safeParse(parseYaml(match[1]!));
  if (!parsed.success)
    throw new Error(`${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  const data = parsed.data;
  return {
    language,
    slug: data.slug,
    hash: createHash('sha256').update(text).digest('hex'),
    path: file,
    version: {
      title: data.title,
      excerpt: data.excerpt,
      content: match[2]!.replace(/^\s*\n/, '').trimEnd(),
      author: data.author,
      cover: data.cover,
      coverAlt: data.coverAlt,
      tags: data.tags,
      translationKey: data.translationKey ?? null,
      seoTitle: data.seoTitle ?? null,
      metaDescription: data.metaDescription ?? null,
      tldr: data.tldr ?? null,
      ctaText: data.ctaText ?? null,
      // Articles point at demo courses by key; ids are derived from keys.
      ctaLink: data.ctaLink?.replace(/\{\{course:([a-z0-9-]+)\}\}/g, (_, key: string) => demoCourseId(key)) ?? null,
      date: data.date.toISOString(),
      published: data.published,
    },
  };
}

/** Every `<root>/<language>/*.md`; a missing folder is no files. Two files with one slug in a language throw. */
export async function readBlogFiles(root: string = BLOG_CONTENT_DIR): Promise<BlogFile[]> {
  const files: BlogFile[] = [];
  for (const language of LANGUAGES) {
    const folder = path.join(root, language);
    const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.md')).sort();
    const seen = new Map<string, string>();
    for (const name of names) {
      const file = path.join(folder, name);
      const post = parseBlogFile(language, file, await readFile(file, 'utf8'));
      const other = seen.get(post.slug);
      if (other) throw new Error(`${file}: slug "${post.slug}" is also the slug of ${other}`);
      seen.set(post.slug, file);
      files.push(post);
    }
  }
  return files;
}
