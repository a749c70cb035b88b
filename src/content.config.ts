import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/** Long static page texts (about, help), one Markdown file per language. Ids: `en/about`. Legal texts: functions/shop/legal.ts. */
const pages = defineCollection({
  loader: glob({ pattern: '*/*.md', base: './content/pages' }),
  schema: z.object({}),
});

// Blog posts are not a collection: content/blog files are synced into the database at start-up
// (functions/blog/sync.ts), and pages read the database only.

export const collections = { pages };
