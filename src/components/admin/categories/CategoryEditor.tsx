import { useTranslation } from '../../islands/I18nIsland.tsx';
import { ColorSwatch, TextAreaField, TextField } from '../../forms/fields.tsx';
import { Form, FormActions, useForm } from '../../forms/use-form.tsx';
import { slugify } from '../../../lib/blog.schema.ts';
import {
  CATEGORY_COLORS,
  CATEGORY_ICONS,
  CategoryFormSchema,
  DEFAULT_CATEGORY_COLOR,
  DEFAULT_CATEGORY_ICON,
  descriptionField,
  nameField,
  type AdminCategoryRow,
} from '../../../lib/admin/categories.schema.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, perLanguage } from '../../../i18n/languages.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { showToast } from '../../../stores/toasts.ts';

interface Props {
  /** Absent: a new category. */
  category?: AdminCategoryRow | undefined;
  /** A new category goes last: the current number of categories. */
  defaultSortOrder: number;
  onSaved: (created: boolean) => void;
  onCancel: () => void;
}

const ID = 'category';

export function CategoryEditor({ category, defaultSortOrder, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const form = useForm(
    CategoryFormSchema,
    {
      ...perLanguage(nameField, (lang) => category?.names[lang] ?? ''),
      slug: category?.slug ?? '',
      ...perLanguage(descriptionField, (lang) => category?.descriptions[lang] ?? ''),
      color: category?.color ?? DEFAULT_CATEGORY_COLOR,
      icon: category?.icon ?? DEFAULT_CATEGORY_ICON,
      sortOrder: String(category?.sortOrder ?? defaultSortOrder),
      active: category?.active ?? true,
    },
    { idPrefix: ID, onFailure: () => showToast('error', t('admin.categories.saveFailed')) },
  );
  const { values, errors, set } = form;
  const slug = slugify(values.slug.trim() || values[nameField(DEFAULT_LANGUAGE)]);
  const color = values.color.toUpperCase();

  const submit = form.handleSubmit(async (data) => {
    const result = category
      ? await requestJson('PUT', `/api/admin/categories/${category.id}`, data)
      : await requestJson('POST', '/api/admin/categories', data);
    if (result.ok) onSaved(!category);
    return result;
  });

  return (
    <Form onSubmit={submit} className="space-y-5">
      <p className="text-sm text-gray-600">{t('admin.categories.requiredHint')}</p>
      <div className="grid gap-4 md:grid-cols-2">
        {LANGUAGES.map((lang) => (
          <TextField
            key={lang}
            label={t(`admin.categories.fieldName.${lang}`)}
            required
            lang={lang}
            {...form.bind(nameField(lang))}
          />
        ))}
      </div>
      <TextField
        label={t('admin.categories.fieldSlug')}
        autoCapitalize="none"
        spellCheck={false}
        {...form.bind('slug')}
        hint={slug ? t('admin.categories.slugWillBe', { slug }) : t('admin.categories.slugFromName')}
      />
      {category && slug !== category.slug && category.courseCount > 0 && (
        <p className="text-sm text-gray-700">{t('admin.categories.slugChangeKeepsCourses', { count: category.courseCount })}</p>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        {LANGUAGES.map((lang) => (
          <TextAreaField
            key={lang}
            label={t(`admin.categories.fieldDescription.${lang}`)}
            rows={3}
            lang={lang}
            {...form.bind(descriptionField(lang))}
          />
        ))}
      </div>

      <fieldset aria-describedby={errors.color ? `${ID}-color-error` : undefined}>
        <legend className="text-sm font-semibold">{t('admin.categories.fieldColor')}</legend>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {CATEGORY_COLORS.map((preset) => (
            <button
              key={preset.value}
              type="button"
              onClick={() => set('color', preset.value)}
              aria-pressed={color === preset.value}
              aria-label={t(`admin.categories.colors.${preset.name}`)}
              title={t(`admin.categories.colors.${preset.name}`)}
              className="rounded-full ring-offset-2 aria-pressed:ring-4 aria-pressed:ring-gray-900"
            >
              <ColorSwatch color={preset.value} />
            </button>
          ))}
          <span className="ml-2 flex items-center gap-2">
            <input
              id={`${ID}-color`}
              type="color"
              value={/^#[0-9A-Fa-f]{6}$/.test(values.color) ? values.color.toLowerCase() : '#3b82f6'}
              onChange={(event) => set('color', event.target.value.toUpperCase())}
              className="h-9 w-12 cursor-pointer rounded border border-gray-300"
            />
            <label htmlFor={`${ID}-color`} className="text-sm">
              {t('admin.categories.customColor')}
            </label>
            <code className="text-sm" aria-live="polite">
              {color}
            </code>
          </span>
        </div>
        {errors.color && (
          <p id={`${ID}-color-error`} className="mt-1 text-sm text-red-700">
            {t(errors.color)}
          </p>
        )}
      </fieldset>

      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <TextField
            label={t('admin.categories.fieldIcon')}
            list={`${ID}-icons`}
            autoCapitalize="none"
            spellCheck={false}
            hint={t('admin.categories.iconHint')}
            {...form.bind('icon')}
          />
          <datalist id={`${ID}-icons`}>
            {CATEGORY_ICONS.map((icon) => (
              <option key={icon} value={icon} />
            ))}
          </datalist>
        </div>
        <TextField
          label={t('admin.categories.fieldSortOrder')}
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          hint={t('admin.categories.sortOrderHint')}
          {...form.bind('sortOrder')}
        />
      </div>

      <div className="flex items-center gap-2">
        <input
          id={`${ID}-active`}
          type="checkbox"
          checked={values.active}
          onChange={(event) => set('active', event.target.checked)}
          className="h-4 w-4"
        />
        <label htmlFor={`${ID}-active`} className="font-medium">
          {t('admin.categories.fieldActive')}
        </label>
      </div>

      <FormActions
        failure={form.failure}
        busy={form.busy}
        label={t(category ? 'admin.categories.saveChanges' : 'admin.categories.createCategory')}
        busyLabel={t('admin.saving')}
        cancelLabel={t('admin.cancel')}
        onCancel={onCancel}
      />
    </Form>
  );
}
