import { useEffect, useMemo, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextAreaField, TextField } from '../forms/Field.tsx';
import { FormFailure, useForm } from '../forms/use-form.tsx';
import { requestJson } from '../../lib/api-client.ts';
import {
  ADMIN_COURSE_LANGUAGES,
  COURSE_DURATION_MAX_MINUTES,
  COURSE_DURATION_MIN_MINUTES,
  COURSE_FORM_FIELDS,
  COVER_ACCEPT,
  CourseFormSchema,
  MAX_COVER_BYTES,
  MAX_PDF_BYTES,
  PDF_ACCEPT,
  courseValues,
  isCloudDriveLink,
  isCoverUrl,
  newCourseValues,
  type AdminCourseView,
} from '../../lib/admin/courses.schema.ts';
import { CURRENCIES, DIFFICULTIES } from '../../lib/course-filters.ts';
import type { CategoryOption } from '../../lib/course-view.ts';
import type { FieldErrors } from '../../lib/validation.ts';
import { showToast } from '../../stores/toasts.ts';
import { LOCALE_OF, type Language } from '../../i18n/languages.ts';

interface Props {
  lang: Language;
  categories: CategoryOption[];
  categoriesUrl: string;
  /** The course to edit; none to create one. */
  course?: AdminCourseView | undefined;
  onSaved(): void;
  onCancel(): void;
}

const COVER_TYPES = COVER_ACCEPT.split(',');
const SELECT_CLASS = 'mt-1 w-full rounded-lg border border-gray-300 bg-white px-3 py-2 aria-invalid:border-red-500';

/** The add/edit form: every field, the PDF and the cover (file or URL) with a preview. Kept open with its input on failure. */
export function CourseEditor({ lang, categories, categoriesUrl, course, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const form = useForm(
    CourseFormSchema,
    course ? courseValues(course) : newCourseValues(categories.length === 1 ? categories[0]!.slug : ''),
  );
  // A create carries its own id: a retried request cannot make a second course.
  const [createId] = useState(() => crypto.randomUUID());
  const [pdf, setPdf] = useState<File | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const [fileErrors, setFileErrors] = useState<FieldErrors>({});
  const coverFileUrl = useDataUrl(cover);
  const [previewBroken, setPreviewBroken] = useState(false);

  const options = useMemo(() => {
    // A course may sit in a category that has since been deactivated: it stays selectable for it.
    if (!course || categories.some((category) => category.slug === course.category)) return categories;
    return [...categories, { slug: course.category, name: course.categoryName }];
  }, [categories, course]);

  const coverUrl = form.values.coverImageUrl.trim();
  const preview = coverFileUrl ?? (coverUrl && isCoverUrl(coverUrl) ? coverUrl : null);
  const cloudLink = !cover && isCloudDriveLink(coverUrl);
  useEffect(() => setPreviewBroken(false), [preview]);

  const setFlag = (name: 'isFeatured' | 'isActive') => (event: ChangeEvent<HTMLInputElement>) =>
    form.setValues((current) => ({ ...current, [name]: event.target.checked ? 'true' : 'false' }));
  const select = (name: 'category' | 'currency' | 'language' | 'difficulty') => ({
    id: `course-${name}`,
    value: form.values[name],
    'aria-invalid': form.errors[name] ? true : undefined,
    'aria-describedby': form.errors[name] ? `course-${name}-error` : undefined,
    onChange: (event: ChangeEvent<HTMLSelectElement>) =>
      form.setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const chooseFile = (kind: 'pdf' | 'cover') => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    (kind === 'pdf' ? setPdf : setCover)(file);
    setFileErrors((current) => ({ ...current, [kind]: undefined }));
  };

  /** What can be known before sending: presence, size and declared type. The server judges the bytes. */
  const checkFiles = (): FieldErrors => {
    const errors: FieldErrors = {};
    if (pdf && pdf.size > MAX_PDF_BYTES) errors.pdf = 'admin.courses.errors.pdfTooLarge';
    else if (!pdf && !course?.hasPdf) errors.pdf = 'admin.courses.errors.pdfRequired';
    if (cover && cover.size > MAX_COVER_BYTES) errors.cover = 'admin.courses.errors.coverTooLarge';
    else if (cover && !COVER_TYPES.includes(cover.type)) errors.cover = 'admin.courses.errors.coverInvalid';
    else if (!cover && !coverUrl) errors.cover = 'admin.courses.errors.coverRequired';
    return errors;
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = form.validate();
    const errors = checkFiles();
    setFileErrors(errors);
    if (!data || Object.keys(errors).length > 0) {
      form.setFailure('admin.courses.saveFailed');
      return showToast('error', t('admin.courses.saveFailed'));
    }
    form.setBusy(true);
    const body = new FormData();
    for (const name of COURSE_FORM_FIELDS) body.set(name, form.values[name]);
    if (!course) body.set('id', createId);
    if (pdf) body.set('pdf', pdf);
    if (cover) body.set('cover', cover);
    const result = course
      ? await requestJson('PUT', `/api/admin/courses/${course.id}?lang=${lang}`, body)
      : await requestJson('POST', `/api/admin/courses?lang=${lang}`, body);
    form.setBusy(false);
    if (result.ok) return onSaved();
    const { pdf: pdfError, cover: coverError, ...fields } = result.fields;
    form.setErrors(fields);
    setFileErrors({ pdf: pdfError, cover: coverError });
    form.setFailure(result.message === 'errors.badRequest' ? 'admin.courses.saveFailed' : result.message);
    showToast('error', t('admin.courses.saveFailed'));
  };

  const fileError = (name: 'pdf' | 'cover') => (fileErrors[name] ? t(fileErrors[name]) : undefined);
  const selectError = (name: 'category' | 'currency' | 'language' | 'difficulty') =>
    form.errors[name] && (
      <p id={`course-${name}-error`} className="mt-1 text-sm text-red-700">
        {t(form.errors[name])}
      </p>
    );

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField label={t('admin.courses.fieldTitle')} required maxLength={200} {...form.bind('title', 'course')} />

      <div>
        <label htmlFor="course-category" className="block text-sm font-semibold">
          {t('admin.courses.fieldCategory')}
        </label>
        {options.length === 0 ? (
          <div role="alert" className="mt-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            {t('admin.courses.noCategories')}{' '}
            <a href={categoriesUrl} className="font-semibold underline">
              {t('admin.courses.goToCategories')}
            </a>
          </div>
        ) : null}
        <select {...select('category')} required disabled={options.length === 0} className={SELECT_CLASS}>
          <option value="">{t('admin.courses.chooseCategory')}</option>
          {options.map((category) => (
            <option key={category.slug} value={category.slug}>
              {category.name}
            </option>
          ))}
        </select>
        {selectError('category')}
      </div>

      <TextAreaField
        label={t('admin.courses.fieldDescription')}
        required
        rows={4}
        maxLength={5000}
        {...form.bind('description', 'course')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('admin.courses.fieldInstructorName')}
          required
          maxLength={200}
          {...form.bind('instructorName', 'course')}
        />
        <TextField
          label={t('admin.courses.fieldDuration')}
          type="number"
          inputMode="numeric"
          required
          min={COURSE_DURATION_MIN_MINUTES}
          max={COURSE_DURATION_MAX_MINUTES}
          step={1}
          {...form.bind('durationMinutes', 'course')}
        />
      </div>
      <TextAreaField
        label={t('admin.courses.fieldInstructorBio')}
        required
        rows={3}
        maxLength={2000}
        {...form.bind('instructorBio', 'course')}
      />

      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <TextField
            label={t('admin.courses.fieldPrice')}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            required
            {...form.bind('price', 'course')}
          />
          <p id="course-price-hint" className="mt-1 text-xs text-gray-500">
            {t('admin.courses.priceHint')}
          </p>
        </div>
        <div>
          <label htmlFor="course-currency" className="block text-sm font-semibold">
            {t('admin.courses.fieldCurrency')}
          </label>
          <select {...select('currency')} className={SELECT_CLASS}>
            {CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </select>
          {selectError('currency')}
        </div>
        <div>
          <label htmlFor="course-language" className="block text-sm font-semibold">
            {t('admin.courses.fieldLanguage')}
          </label>
          <select {...select('language')} className={SELECT_CLASS}>
            {ADMIN_COURSE_LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </select>
          {selectError('language')}
        </div>
        <div>
          <label htmlFor="course-difficulty" className="block text-sm font-semibold">
            {t('admin.courses.fieldDifficulty')}
          </label>
          <select {...select('difficulty')} className={SELECT_CLASS}>
            {DIFFICULTIES.map((level) => (
              <option key={level} value={level}>
                {t(`difficulty.${level}`)}
              </option>
            ))}
          </select>
          {selectError('difficulty')}
        </div>
      </div>

      <div>
        <TextField label={t('admin.courses.fieldTags')} maxLength={1000} {...form.bind('tags', 'course')} />
        <p id="course-tags-hint" className="mt-1 text-xs text-gray-500">
          {t('admin.courses.tagsHint')}
        </p>
      </div>

      <div className="flex flex-wrap gap-6">
        <label className="inline-flex items-center gap-2 font-medium">
          <input
            type="checkbox"
            checked={form.values.isFeatured === 'true'}
            onChange={setFlag('isFeatured')}
            className="h-4 w-4"
          />
          {t('admin.courses.fieldFeatured')}
        </label>
        <label className="inline-flex items-center gap-2 font-medium">
          <input type="checkbox" checked={form.values.isActive === 'true'} onChange={setFlag('isActive')} className="h-4 w-4" />
          {t('admin.courses.fieldActive')}
        </label>
      </div>

      <fieldset className="space-y-3 rounded-lg border border-gray-200 p-4">
        <legend className="px-1 text-sm font-semibold">{t('admin.courses.coverLegend')}</legend>
        <FileInput
          id="course-cover"
          label={t('admin.courses.fieldCoverFile')}
          hint={t('admin.courses.coverFileHint')}
          accept={COVER_ACCEPT}
          file={cover}
          error={fileError('cover')}
          lang={lang}
          onChange={chooseFile('cover')}
        />
        <TextField
          label={t('admin.courses.fieldCoverUrl')}
          type="url"
          inputMode="url"
          placeholder="https://…"
          maxLength={2000}
          {...form.bind('coverImageUrl', 'course')}
        />
        {cloudLink && (
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            {t('admin.courses.coverCloudWarning')}
          </p>
        )}
        {preview && (
          <figure>
            <figcaption className="text-xs font-semibold text-gray-600">{t('admin.courses.coverPreview')}</figcaption>
            {previewBroken || cloudLink ? (
              <p className="mt-1 flex aspect-video w-full max-w-xs items-center justify-center rounded-lg bg-gray-100 p-3 text-center text-sm text-gray-600">
                {t('admin.courses.coverBroken')}
              </p>
            ) : (
              <img
                src={preview}
                alt={t('admin.courses.coverPreview')}
                onError={() => setPreviewBroken(true)}
                className="mt-1 aspect-video w-full max-w-xs rounded-lg bg-gray-100 object-cover"
              />
            )}
          </figure>
        )}
      </fieldset>

      <fieldset className="space-y-2 rounded-lg border border-gray-200 p-4">
        <legend className="px-1 text-sm font-semibold">{t('admin.courses.pdfLegend')}</legend>
        {course?.hasPdf && <p className="text-sm text-gray-700">{t('admin.courses.pdfStored')}</p>}
        <FileInput
          id="course-pdf"
          label={t('admin.courses.fieldPdf')}
          hint={t('admin.courses.pdfHint')}
          accept={PDF_ACCEPT}
          file={pdf}
          error={fileError('pdf')}
          lang={lang}
          onChange={chooseFile('pdf')}
          required={!course?.hasPdf}
        />
      </fieldset>

      <FormFailure message={form.failure} />
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
          disabled={form.busy}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {form.busy ? t('admin.saving') : t('admin.save')}
        </button>
      </div>
    </form>
  );
}

function FileInput({
  id,
  label,
  hint,
  accept,
  file,
  error,
  lang,
  required,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  accept: string;
  file: File | null;
  error: string | undefined;
  lang: Language;
  required?: boolean;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
}) {
  const { t } = useTranslation();
  const describedBy = [`${id}-hint`, file ? `${id}-chosen` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        required={required}
        onChange={onChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-gray-500">
        {hint}
      </p>
      {file && (
        <p id={`${id}-chosen`} className="mt-1 text-xs text-gray-700">
          {t('admin.courses.selectedFile', { name: file.name, size: formatBytes(file.size, lang) })}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function formatBytes(bytes: number, lang: Language): string {
  const megabytes = bytes / (1024 * 1024);
  const unit = megabytes >= 1 ? 'megabyte' : 'kilobyte';
  const value = megabytes >= 1 ? megabytes : bytes / 1024;
  return new Intl.NumberFormat(LOCALE_OF[lang], { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

/** A chosen image as a data: URL (the page's CSP allows data: images, not blob: ones). */
function useDataUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!file || !COVER_TYPES.includes(file.type) || file.size > MAX_COVER_BYTES) return;
    const reader = new FileReader();
    reader.onload = () => setUrl(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return url;
}
