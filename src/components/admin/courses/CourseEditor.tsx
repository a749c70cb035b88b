import { useMemo, useState, type ChangeEvent } from 'react';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import { CheckboxField, FileField, SelectField, TextAreaField, TextField } from '../../forms/fields.tsx';
import { Form, FormActions, useForm } from '../../forms/use-form.tsx';
import { requestJson } from '../../../lib/api-client.ts';
import {
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
  type BundleChoice,
  type CourseFormValues,
} from '../../../lib/admin/courses.schema.ts';
import { BundleFields } from './BundleFields.tsx';
import { BundleTranslations } from './BundleTranslations.tsx';
import { COVER_TYPES, formatBytes, useDataUrl } from './chosen-files.ts';
import { CURRENCIES, DIFFICULTIES } from '../../../lib/course-filters.ts';
import { COURSE_LANGUAGES } from '../../../lib/course-languages.ts';
import type { CategoryOption } from '../../../lib/course-view.ts';
import type { FieldErrors } from '../../../lib/validation.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';
import { formatDate } from '../../../lib/dates.ts';
import { UpdateNotices } from './UpdateNotices.tsx';

interface Props {
  lang: Language;
  categories: CategoryOption[];
  categoriesUrl: string;
  /** The courses a bundle may hold. */
  bundleChoices: BundleChoice[];
  /** The course to edit; none to create one. */
  course?: AdminCourseView | undefined;
  /** After a save: how many buyers were e-mailed about a new version. */
  onSaved: (notified: number) => void;
  onCancel: () => void;
}

/** The add/edit form: every field, the PDF and the cover (file or URL) with a preview. Kept open with its input on failure. */
export function CourseEditor({ lang, categories, categoriesUrl, bundleChoices, course, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const form = useForm<typeof CourseFormSchema, CourseFormValues>(
    CourseFormSchema,
    course ? courseValues(course) : newCourseValues(categories.length === 1 ? categories[0]!.slug : ''),
    {
      idPrefix: 'course',
      invalidMessage: 'admin.courses.saveFailed',
      onFailure: () => showToast('error', t('admin.courses.saveFailed')),
    },
  );
  // A create carries its own id: a retried request cannot make a second course.
  const [createId] = useState(() => crypto.randomUUID());
  const [pdf, setPdf] = useState<File | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const [fileErrors, setFileErrors] = useState<FieldErrors>({});
  const coverFileUrl = useDataUrl(cover);
  // The preview that failed to load, if any: a new preview is tried afresh.
  const [brokenPreview, setBrokenPreview] = useState<string | null>(null);

  const options = useMemo(() => {
    // A course may sit in a category that has since been deactivated: it stays selectable for it.
    if (!course || categories.some((category) => category.slug === course.category)) return categories;
    return [...categories, { slug: course.category, name: course.categoryName }];
  }, [categories, course]);

  const bundle = form.values.kind === 'bundle';
  const payWhatYouWant = !bundle && form.values.payWhatYouWant === 'true';
  const coverUrl = form.values.coverImageUrl.trim();
  const preview = coverFileUrl ?? (coverUrl && isCoverUrl(coverUrl) ? coverUrl : null);
  const cloudLink = !cover && isCloudDriveLink(coverUrl);
  const previewBroken = preview !== null && preview === brokenPreview;

  const setChecked = (name: 'isFeatured' | 'isActive' | 'stampPdfs' | 'notifyBuyers' | 'payWhatYouWant') => (checked: boolean) =>
    form.setValues((current) => ({ ...current, [name]: checked ? 'true' : 'false' }));
  const setFlag = (name: 'isFeatured' | 'isActive') => (event: ChangeEvent<HTMLInputElement>) =>
    setChecked(name)(event.target.checked);

  const chooseFile = (kind: 'pdf' | 'cover') => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    (kind === 'pdf' ? setPdf : setCover)(file);
    setFileErrors((current) => ({ ...current, [kind]: undefined }));
  };

  /** What can be known before sending: presence, size and declared type. The server judges the bytes. */
  const checkFiles = (): FieldErrors => {
    const errors: FieldErrors = {};
    if (pdf && pdf.size > MAX_PDF_BYTES) errors.pdf = 'admin.courses.errors.pdfTooLarge';
    else if (!pdf && !course?.hasPdf && !bundle) errors.pdf = 'admin.courses.errors.pdfRequired';
    if (cover && cover.size > MAX_COVER_BYTES) errors.cover = 'admin.courses.errors.coverTooLarge';
    else if (cover && !COVER_TYPES.includes(cover.type)) errors.cover = 'admin.courses.errors.coverInvalid';
    else if (!cover && !coverUrl) errors.cover = 'admin.courses.errors.coverRequired';
    return errors;
  };

  const submit = form.handleSubmit(async () => {
    const errors = checkFiles();
    setFileErrors(errors);
    if (Object.keys(errors).length > 0) {
      return { ok: false, status: 400, message: 'admin.courses.saveFailed', fields: {} } as const;
    }
    const body = new FormData();
    for (const name of COURSE_FORM_FIELDS) body.set(name, form.values[name]);
    // A bundle sells its courses: it has no price of the buyer's naming.
    if (bundle) body.set('payWhatYouWant', 'false');
    // Buyers are told only of a file chosen now.
    body.set('notifyBuyers', pdf && form.values.notifyBuyers === 'true' ? 'true' : 'false');
    if (!course) body.set('id', createId);
    if (pdf && !bundle) body.set('pdf', pdf);
    if (cover) body.set('cover', cover);
    const result = course
      ? await requestJson<{ notified?: number }>('PUT', `/api/admin/courses/${course.id}?lang=${lang}`, body)
      : await requestJson<{ notified?: number }>('POST', `/api/admin/courses?lang=${lang}`, body);
    if (result.ok) return onSaved(result.data.notified ?? 0);
    const { pdf: pdfError, cover: coverError, ...fields } = result.fields;
    setFileErrors({ pdf: pdfError, cover: coverError });
    return { ...result, fields, message: result.message === 'errors.badRequest' ? 'admin.courses.saveFailed' : result.message };
  });

  const fileError = (name: 'pdf' | 'cover') => (fileErrors[name] ? t(fileErrors[name]) : undefined);

  const chosen = (file: File | null) =>
    file ? t('admin.courses.selectedFile', { name: file.name, size: formatBytes(file.size, lang) }) : undefined;

  return (
    <Form
      onSubmit={(event) => {
        // Files are checked with the fields, so every problem shows at once.
        setFileErrors(checkFiles());
        submit(event);
      }}
      className="space-y-4"
    >
      <TextField label={t('admin.courses.fieldTitle')} required maxLength={200} {...form.bind('title')} />
      <SelectField label={t('admin.courses.fieldKind')} disabled={Boolean(course)} {...form.bind('kind')}>
        <option value="course">{t('admin.courses.kindCourse')}</option>
        <option value="bundle">{t('admin.courses.kindBundle')}</option>
      </SelectField>

      {options.length === 0 && (
        <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {t('admin.courses.noCategories')}{' '}
          <a href={categoriesUrl} className="font-semibold underline">
            {t('admin.courses.goToCategories')}
          </a>
        </div>
      )}
      <SelectField label={t('admin.courses.fieldCategory')} required disabled={options.length === 0} {...form.bind('category')}>
        <option value="">{t('admin.courses.chooseCategory')}</option>
        {options.map((category) => (
          <option key={category.slug} value={category.slug}>
            {category.name}
          </option>
        ))}
      </SelectField>

      <TextAreaField
        label={t('admin.courses.fieldDescription')}
        required
        rows={4}
        maxLength={5000}
        {...form.bind('description')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('admin.courses.fieldInstructorName')} required maxLength={200} {...form.bind('instructorName')} />
        <TextField
          label={t('admin.courses.fieldDuration')}
          type="number"
          inputMode="numeric"
          required
          min={COURSE_DURATION_MIN_MINUTES}
          max={COURSE_DURATION_MAX_MINUTES}
          step={1}
          {...form.bind('durationMinutes')}
        />
      </div>
      <TextAreaField
        label={t('admin.courses.fieldInstructorBio')}
        required
        rows={3}
        maxLength={2000}
        {...form.bind('instructorBio')}
      />

      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('admin.courses.fieldPrice')}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          hint={t(payWhatYouWant ? 'admin.courses.suggestedPriceHint' : 'admin.courses.priceHint')}
          {...form.bind('price')}
        />
        <SelectField label={t('admin.courses.fieldCurrency')} {...form.bind('currency')}>
          {CURRENCIES.map((currency) => (
            <option key={currency} value={currency}>
              {currency}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('admin.courses.fieldLanguage')} {...form.bind('language')}>
          {COURSE_LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {t(`courseLanguage.${code}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('admin.courses.fieldDifficulty')} {...form.bind('difficulty')}>
          {DIFFICULTIES.map((level) => (
            <option key={level} value={level}>
              {t(`difficulty.${level}`)}
            </option>
          ))}
        </SelectField>
      </div>

      {bundle && (
        <BundleFields
          lang={lang}
          choices={bundleChoices.filter((choice) => choice.id !== course?.id)}
          currency={form.values.currency}
          selected={form.values.bundleCourses}
          price={form.values.price}
          reducesOwned={form.values.bundleReducesOwned === 'true'}
          error={form.errors.bundleCourses ? t(form.errors.bundleCourses) : undefined}
          onSelected={(ids) => form.setValues((current) => ({ ...current, bundleCourses: ids }))}
          onReducesOwned={(checked) =>
            form.setValues((current) => ({ ...current, bundleReducesOwned: checked ? 'true' : 'false' }))
          }
        />
      )}
      {bundle && <BundleTranslations language={form.values.language} currency={form.values.currency} bind={form.bind} />}
      {!bundle && (
        <CheckboxField
          id="course-pay-what-you-want"
          label={t('admin.courses.fieldPayWhatYouWant')}
          hint={t('admin.courses.payWhatYouWantHint')}
          checked={payWhatYouWant}
          onChange={setChecked('payWhatYouWant')}
        />
      )}
      {payWhatYouWant && (
        <TextField
          label={t('admin.courses.fieldMinimumPrice')}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          required
          hint={t('admin.courses.minimumPriceHint')}
          {...form.bind('minimumPrice')}
        />
      )}

      <TextField
        label={t('admin.courses.fieldTags')}
        maxLength={1000}
        hint={t('admin.courses.tagsHint')}
        {...form.bind('tags')}
      />

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
        <FileField
          id="course-cover"
          label={t('admin.courses.fieldCoverFile')}
          hint={t('admin.courses.coverFileHint')}
          accept={COVER_ACCEPT}
          chosen={chosen(cover)}
          error={fileError('cover')}
          onChange={chooseFile('cover')}
        />
        <TextField
          label={t('admin.courses.fieldCoverUrl')}
          type="url"
          inputMode="url"
          placeholder="https://…"
          maxLength={2000}
          {...form.bind('coverImageUrl')}
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
                onError={() => setBrokenPreview(preview)}
                className="mt-1 aspect-video w-full max-w-xs rounded-lg bg-gray-100 object-cover"
              />
            )}
          </figure>
        )}
      </fieldset>

      {!bundle && (
        <fieldset className="space-y-2 rounded-lg border border-gray-200 p-4">
          <legend className="px-1 text-sm font-semibold">{t('admin.courses.pdfLegend')}</legend>
          {course?.hasPdf && <p className="text-sm text-gray-700">{t('admin.courses.pdfStored')}</p>}
          {course?.pdfUpdatedAt && (
            <p className="text-sm text-gray-700">
              {t('admin.courses.pdfVersion', { version: course.pdfVersion, date: formatDate(course.pdfUpdatedAt, lang) })}
            </p>
          )}
          {course?.updateNotices && (
            <p className="text-sm">
              <UpdateNotices notices={course.updateNotices} />
            </p>
          )}
          <FileField
            id="course-pdf"
            label={t('admin.courses.fieldPdf')}
            hint={t('admin.courses.pdfHint')}
            accept={PDF_ACCEPT}
            chosen={chosen(pdf)}
            error={fileError('pdf')}
            onChange={chooseFile('pdf')}
            required={!course?.hasPdf}
          />
          {course?.hasPdf && pdf && (
            <CheckboxField
              id="course-notify-buyers"
              label={t('admin.courses.fieldNotifyBuyers')}
              hint={t('admin.courses.notifyBuyersHint')}
              checked={form.values.notifyBuyers === 'true'}
              onChange={setChecked('notifyBuyers')}
            />
          )}
          <TextField
            label={t('admin.courses.fieldPreviewPages')}
            hint={t('admin.courses.previewPagesHint')}
            inputMode="text"
            maxLength={20}
            {...form.bind('previewPages')}
          />
          <CheckboxField
            id="course-stamp-pdfs"
            label={t('admin.courses.fieldStampPdfs')}
            hint={t('admin.courses.stampPdfsHint')}
            checked={form.values.stampPdfs === 'true'}
            onChange={setChecked('stampPdfs')}
          />
        </fieldset>
      )}

      <FormActions
        failure={form.failure}
        busy={form.busy}
        label={t('admin.save')}
        busyLabel={t('admin.saving')}
        cancelLabel={t('admin.cancel')}
        onCancel={onCancel}
      />
    </Form>
  );
}
