import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { COURSE_LANGUAGES } from '../../src/lib/course-languages.ts';
import { CURRENCIES } from '../../src/lib/course-filters.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { ShopSettingsSchema } from '../../src/lib/admin/shop-settings.schema.ts';

const CATALOGUE_FILE = fileURLToPath(new URL('../../content/catalogue/demo-catalogue.json', import.meta.url));

const Localised = z.object({ en: z.string().min(1), tr: z.string().min(1) });
const HexColour = z.string().regex(/^#[0-9A-Fa-f]{6}$/);

export const DemoCategorySchema = z.object({
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  name: Localised,
  description: Localised,
  color: HexColour,
  icon: z.string().min(1),
  sortOrder: z.number().int().min(0),
});

export const DemoCourseSchema = z.object({
  key: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  language: z.enum(COURSE_LANGUAGES),
  title: z.string().min(1).max(200),
  description: z.string().min(1),
  category: z.string(),
  difficulty: z.enum(['beginner', 'intermediate', 'advanced']),
  priceMinor: z.number().int().min(0),
  /** Pay what you want: the least a buyer may name (priceMinor is the suggestion). */
  minimumPriceMinor: z.number().int().min(0).optional(),
  currency: z.enum(['USD', 'EUR', 'TRY']),
  durationMinutes: z.number().int().min(1),
  instructorName: z.string().min(1),
  instructorBio: z.string(),
  tags: z.array(z.string().min(1)),
  isFeatured: z.boolean(),
  /** The free preview's pages (Admin → Courses), when the demo offers one. */
  previewPages: z.object({ firstPage: z.number().int().min(1), lastPage: z.number().int().min(1) }).optional(),
  coverColors: z.tuple([HexColour, HexColour]),
  lessons: z.array(z.object({ heading: z.string().min(1), paragraphs: z.array(z.string().min(1)).min(1) })).min(1),
});

/** A bundle (decision 44): a course row without a PDF that grants the listed demo courses. */
export const DemoBundleSchema = DemoCourseSchema.omit({ lessons: true, minimumPriceMinor: true, previewPages: true }).extend({
  courses: z.array(z.string()).min(2),
  /** Its text in the other interface languages, and its price in other currencies (decision 44). */
  texts: z.partialRecord(z.enum(LANGUAGES), z.object({ title: z.string().min(1), description: z.string().min(1) })).default({}),
  prices: z.partialRecord(z.enum(CURRENCIES), z.number().int().min(0)).default({}),
});

export const DemoCatalogueSchema = z.object({
  /** Obviously demo values for the shop's settings (a seller replaces them in Admin → Settings). */
  shop: ShopSettingsSchema,
  categories: z.array(DemoCategorySchema).min(1),
  courses: z.array(DemoCourseSchema).min(1),
  bundles: z.array(DemoBundleSchema).default([]),
});

export type DemoCategory = z.infer<typeof DemoCategorySchema>;
export type DemoCourse = z.infer<typeof DemoCourseSchema>;
export type DemoBundle = z.infer<typeof DemoBundleSchema>;
export type DemoCatalogue = z.infer<typeof DemoCatalogueSchema>;

export async function loadDemoCatalogue(file = CATALOGUE_FILE): Promise<DemoCatalogue> {
  return DemoCatalogueSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}
