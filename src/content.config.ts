import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/** Long static page texts (about, privacy, terms, help, refund), one Markdown file per language. Ids: `en/about`. */
const pages = defineCollection({
  loader: glob({ pattern: '*/*.md', base: './content/pages' }),
  schema: z.object({}),
});

export const collections = { pages };
