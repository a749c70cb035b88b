import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { BlogFrontMatterSchema } from './lib/blog.schema.ts';

/** Long static page texts (about, help), one Markdown file per language. Ids: `en/about`. Legal texts: functions/shop/legal.ts. */
const pages = defineCollection({
  loader: glob({ pattern: '*/*.md', base: './content/pages' }),
  schema: z.object({}),
});

/** Blog posts shipped as Markdown, one folder per language. Ids: `en/first-monthly-budget`. */
const blog = defineCollection({
  // The id keeps the language folder (`en/…`): the loader would otherwise use the front matter's slug.
  loader: glob({ pattern: '*/*.md', base: './content/blog', generateId: ({ entry }) => entry.replace(/\.md$/, '') }),
  schema: BlogFrontMatterSchema,
});

export const collections = { pages, blog };
