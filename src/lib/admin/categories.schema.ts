import { z } from '../zod.ts';
import { foldTurkish } from '../turkish.ts';
import { slugify } from '../blog.schema.ts';
import { text } from '../validation.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, perLanguage, type Language } from '../../i18n/languages.ts';

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

const description = text('errors.badRequest')
  .trim()
  .max(DESCRIPTION_MAX, 'validation.tooLong')
  .nullish()
  .transform((value) => value ?? '');

/** A category's text in every interface language: one field each, so a new language is a new field. */
export type PerLanguage = Record<Language, string>;
export const nameField = (lang: Language) => `name-${lang}` as const;
export const descriptionField = (lang: Language) => `description-${lang}` as const;

const named = (lang: Language) => {
  const required = `admin.categories.nameRequired.${lang}`;
  return text(required).trim().min(1, required).max(NAME_MAX, 'validation.tooLong');
};

/** Whole numbers from a number input arrive as text; "" is missing, not 0. */
const SortOrder = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value.trim())) : value),
  z
    .number('admin.categories.sortOrderInvalid')
    .int('admin.categories.sortOrderInvalid')
    .min(0, 'admin.categories.sortOrderInvalid')
    .max(1_000_000, 'admin.categories.sortOrderInvalid'),
);

/** The form as the island checks and sends it: one flat field per language. */
export const CategoryFormSchema = z
  .object(
    {
      ...perLanguage(nameField, named),
      // Blank: made from the default language's name; either way tidied by slugify, as the form shows.
      slug: text('errors.badRequest').trim().max(NAME_MAX, 'validation.tooLong').default(''),
      ...perLanguage(descriptionField, () => description),
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
    const slug = slugify(category.slug || category[nameField(DEFAULT_LANGUAGE)]);
    if (!slug) {
      context.addIssue({ code: 'custom', path: ['slug'], message: 'admin.categories.slugRequired' });
      return z.NEVER;
    }
    return { ...category, slug };
  });

/** What the server reads from the form: its texts gathered per language. */
export const CategorySchema = CategoryFormSchema.transform(({ slug, color, icon, sortOrder, active, ...texts }) => {
  const textsOf = (field: typeof nameField | typeof descriptionField) =>
    Object.fromEntries(LANGUAGES.map((lang) => [lang, texts[field(lang)]])) as PerLanguage;
  return { slug, names: textsOf(nameField), descriptions: textsOf(descriptionField), color, icon, sortOrder, active };
});

export type CategoryForm = z.input<typeof CategoryFormSchema>;
export type CategoryData = z.output<typeof CategorySchema>;

export const CategoryActiveSchema = z.object({ active: z.boolean('errors.badRequest') }, 'errors.badRequest');

/** A category as the admin island gets it. */
export interface AdminCategoryRow {
  id: string;
  slug: string;
  /** Empty for a language the category has no text in yet (one added since it was last saved). */
  names: PerLanguage;
  descriptions: PerLanguage;
  color: string;
  icon: string;
  active: boolean;
  sortOrder: number;
  courseCount: number;
}

export function categoryMatches(category: AdminCategoryRow, query: string): boolean {
  const needle = foldTurkish(query.trim());
  if (!needle) return true;
  return [...Object.values(category.names), category.slug, ...Object.values(category.descriptions)].some((text) =>
    foldTurkish(text).includes(needle),
  );
}
