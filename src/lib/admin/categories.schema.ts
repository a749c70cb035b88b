import { z } from '../zod.ts';
import { foldTurkish } from '../turkish.ts';
import { slugify } from '../blog.schema.ts';
import { text } from '../validation.ts';

/** The admin category form, checked by the same schema in the editor and on the server (client-safe). */
export const DEFAULT_CATEGORY_COLOR = '#3B82F6';
export const DEFAULT_CATEGORY_ICON = 'BookOpen';
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

/** The 12 preset swatches; each name is a translation key under admin.categories.colors. */
export const CATEGORY_COLORS = [
  { value: '#3B82F6', name: 'blue' },
  { value: '#6366F1', name: 'indigo' },
  { value: '#8B5CF6', name: 'violet' },
  { value: '#EC4899', name: 'pink' },
  { value: '#EF4444', name: 'red' },
  { value: '#F97316', name: 'orange' },
  { value: '#F59E0B', name: 'amber' },
  { value: '#84CC16', name: 'lime' },
  { value: '#10B981', name: 'emerald' },
  { value: '#14B8A6', name: 'teal' },
  { value: '#06B6D4', name: 'cyan' },
  { value: '#6B7280', name: 'gray' },
] as const;

/** Suggestions for the icon field: names from the lucide icon set. */
export const CATEGORY_ICONS = [
  'BookOpen',
  'Cpu',
  'Code',
  'Briefcase',
  'Palette',
  'Megaphone',
  'HeartPulse',
  'Sprout',
  'Brain',
  'Camera',
  'Music',
  'Globe',
  'Calculator',
  'Lightbulb',
  'Languages',
] as const;

const required = (message: string, max: number) => text(message).trim().min(1, message).max(max, 'validation.tooLong');
const description = text('errors.badRequest')
  .trim()
  .max(DESCRIPTION_MAX, 'validation.tooLong')
  .nullish()
  .transform((value) => value ?? '');

/** Whole numbers from a number input arrive as text; "" is missing, not 0. */
const SortOrder = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value.trim())) : value),
  z
    .number('admin.categories.sortOrderInvalid')
    .int('admin.categories.sortOrderInvalid')
    .min(0, 'admin.categories.sortOrderInvalid')
    .max(1_000_000, 'admin.categories.sortOrderInvalid'),
);

export const CategorySchema = z
  .object(
    {
      nameEn: required('admin.categories.nameEnRequired', NAME_MAX),
      nameTr: required('admin.categories.nameTrRequired', NAME_MAX),
      // Blank: made from the English name; either way tidied by slugify, as the form shows.
      slug: text('errors.badRequest').trim().max(NAME_MAX, 'validation.tooLong').default(''),
      descriptionEn: description,
      descriptionTr: description,
      color: z
        .string('admin.categories.colorInvalid')
        .trim()
        .regex(/^#[0-9A-Fa-f]{6}$/, 'admin.categories.colorInvalid')
        .default(DEFAULT_CATEGORY_COLOR)
        .transform((value) => value.toUpperCase()),
      icon: z
        .string('admin.categories.iconInvalid')
        .trim()
        .regex(/^[A-Z][A-Za-z0-9]{0,49}$/, 'admin.categories.iconInvalid')
        .default(DEFAULT_CATEGORY_ICON),
      sortOrder: SortOrder,
      active: z.boolean('errors.badRequest').default(true),
    },
    'errors.badRequest',
  )
  .transform((category, context) => {
    const slug = slugify(category.slug || category.nameEn);
    if (!slug) {
      context.addIssue({ code: 'custom', path: ['slug'], message: 'admin.categories.slugRequired' });
      return z.NEVER;
    }
    return { ...category, slug };
  });

export type CategoryForm = z.input<typeof CategorySchema>;
export type CategoryData = z.output<typeof CategorySchema>;

export const CategoryActiveSchema = z.object({ active: z.boolean('errors.badRequest') }, 'errors.badRequest');

/** A category as the admin island gets it. */
export interface AdminCategoryRow {
  id: string;
  slug: string;
  nameEn: string;
  nameTr: string;
  descriptionEn: string;
  descriptionTr: string;
  color: string;
  icon: string;
  active: boolean;
  sortOrder: number;
  courseCount: number;
}

export function categoryMatches(category: AdminCategoryRow, query: string): boolean {
  const needle = foldTurkish(query.trim());
  if (!needle) return true;
  return [category.nameEn, category.nameTr, category.slug, category.descriptionEn, category.descriptionTr].some((text) =>
    foldTurkish(text).includes(needle),
  );
}
