import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Input, TextArea, focusFirstError } from '../content-fields.tsx';
import { FormFailure } from '../../forms/use-form.tsx';
import { slugify } from '../../../lib/blog.schema.ts';
import {
  CATEGORY_COLORS,
  CATEGORY_ICONS,
  CategorySchema,
  DEFAULT_CATEGORY_COLOR,
  DEFAULT_CATEGORY_ICON,
  type AdminCategoryRow,
} from '../../../lib/admin/categories.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { fieldErrors, type FieldErrors } from '../../../lib/validation.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';

interface Props {
  /** Absent: a new category. */
  category?: AdminCategoryRow | undefined;
  /** A new category goes last: the current number of categories. */
  defaultSortOrder: number;
  onSaved(created: boolean): void;
  onCancel(): void;
}

interface Values {
  nameEn: string;
  nameTr: string;
  slug: string;
  descriptionEn: string;
  descriptionTr: string;
  color: string;
  icon: string;
  sortOrder: string;
  active: boolean;
}

const FIELD_ORDER = ['nameEn', 'nameTr', 'slug', 'descriptionEn', 'descriptionTr', 'color', 'icon', 'sortOrder'] as const;
const ID = 'category';

export function CategoryEditor({ category, defaultSortOrder, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(() => ({
    nameEn: category?.nameEn ?? '',
    nameTr: category?.nameTr ?? '',
    slug: category?.slug ?? '',
    descriptionEn: category?.descriptionEn ?? '',
    descriptionTr: category?.descriptionTr ?? '',
    color: category?.color ?? DEFAULT_CATEGORY_COLOR,
    icon: category?.icon ?? DEFAULT_CATEGORY_ICON,
    sortOrder: String(category?.sortOrder ?? defaultSortOrder),
    active: category?.active ?? true,
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof Values>(name: K, value: Values[K]) => setValues((current) => ({ ...current, [name]: value }));
  const text = (name: Exclude<keyof Values, 'active'>) => ({
    id: `${ID}-${name}`,
    name,
    value: values[name],
    error: errors[name] ? t(errors[name]) : undefined,
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
  });
  const slug = slugify(values.slug.trim() || values.nameEn);
  const color = values.color.toUpperCase();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = CategorySchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      focusFirstError(ID, FIELD_ORDER, found);
      return;
    }
    setErrors({});
    setBusy(true);
    const result = category
      ? await requestJson('PUT', `/api/admin/categories/${category.id}`, parsed.data)
      : await requestJson('POST', '/api/admin/categories', parsed.data);
    setBusy(false);
    if (!result.ok) {
      // Nothing typed is lost: the reason shows at its field and above the buttons.
      setErrors(result.fields);
      setFailure(result.message);
      focusFirstError(ID, FIELD_ORDER, result.fields);
      showToast('error', t('admin.categories.saveFailed'));
      return;
    }
    onSaved(!category);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-sm text-gray-600">{t('admin.categories.requiredHint')}</p>
      <div className="grid gap-4 md:grid-cols-2">
        <Input label={t('admin.categories.fieldNameEn')} required lang="en" {...text('nameEn')} />
        <Input label={t('admin.categories.fieldNameTr')} required lang="tr" {...text('nameTr')} />
      </div>
      <Input
        label={t('admin.categories.fieldSlug')}
        autoCapitalize="none"
        spellCheck={false}
        {...text('slug')}
        hint={slug ? t('admin.categories.slugWillBe', { slug }) : t('admin.categories.slugFromName')}
      />
      {category && slug !== category.slug && category.courseCount > 0 && (
        <p className="text-sm text-gray-700">{t('admin.categories.slugChangeKeepsCourses', { count: category.courseCount })}</p>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <TextArea label={t('admin.categories.fieldDescriptionEn')} rows={3} lang="en" {...text('descriptionEn')} />
        <TextArea label={t('admin.categories.fieldDescriptionTr')} rows={3} lang="tr" {...text('descriptionTr')} />
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
              className="h-8 w-8 rounded-full border-2 border-white shadow ring-1 ring-black/20 aria-pressed:ring-4 aria-pressed:ring-gray-900"
              style={{ backgroundColor: preset.value }}
            />
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
          <Input
            label={t('admin.categories.fieldIcon')}
            list={`${ID}-icons`}
            autoCapitalize="none"
            spellCheck={false}
            hint={t('admin.categories.iconHint')}
            {...text('icon')}
          />
          <datalist id={`${ID}-icons`}>
            {CATEGORY_ICONS.map((icon) => (
              <option key={icon} value={icon} />
            ))}
          </datalist>
        </div>
        <Input
          label={t('admin.categories.fieldSortOrder')}
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          hint={t('admin.categories.sortOrderHint')}
          {...text('sortOrder')}
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

      <FormFailure message={failure} />
      <div className="flex justify-end gap-3">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('admin.cancel')}
        </button>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {busy ? t('admin.saving') : t(category ? 'admin.categories.saveChanges' : 'admin.categories.createCategory')}
        </button>
      </div>
    </form>
  );
}
