import { useEffect, useState } from 'react';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import { SelectField, TextField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { requestJson } from '../../../lib/api-client.ts';
import {
  CourseOfferFormSchema,
  OFFER_HOURS_MAX,
  OFFER_PERCENT_MAX,
  courseOfferValues,
  type CourseOfferView,
} from '../../../lib/admin/course-offer.schema.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';
import { showToast } from '../../../stores/toasts.ts';

/**
 * The course's next-course offer, beside the course's form in the same dialog: a form of its own,
 * saved on its own (the course's fields and files are not sent again for it).
 */
export function OfferEditor({ courseId }: { courseId: string }) {
  const [loaded, setLoaded] = useState<CourseOfferView | MessageKey | null>(null);
  useEffect(() => {
    void requestJson<{ offer: CourseOfferView }>('GET', `/api/admin/courses/${courseId}/offer`).then((result) =>
      setLoaded(result.ok ? result.data.offer : result.message),
    );
  }, [courseId]);
  if (loaded === null) return null;
  if (typeof loaded === 'string') return <FormFailure message={loaded} />;
  return <OfferForm courseId={courseId} view={loaded} onSaved={setLoaded} />;
}

function OfferForm({
  courseId,
  view,
  onSaved,
}: {
  courseId: string;
  view: CourseOfferView;
  onSaved: (view: CourseOfferView) => void;
}) {
  const { t } = useTranslation();
  const form = useForm(CourseOfferFormSchema, courseOfferValues(view), { idPrefix: 'offer' });
  const submit = form.handleSubmit(async () => {
    const result = await requestJson<{ offer: CourseOfferView }>('PUT', `/api/admin/courses/${courseId}/offer`, form.values);
    if (!result.ok) return result;
    showToast('success', t('admin.courses.offer.saved'));
    onSaved(result.data.offer);
    return undefined;
  });
  return (
    <Form onSubmit={submit} className="mt-6 space-y-4 rounded-lg border border-gray-200 p-4">
      <h3 className="text-sm font-semibold">{t('admin.courses.offer.legend')}</h3>
      <p className="text-sm text-gray-700">{t('admin.courses.offer.intro')}</p>
      <SelectField label={t('admin.courses.offer.fieldCourse')} {...form.bind('offeredCourseId')}>
        <option value="">
          {view.automatic
            ? t('admin.courses.offer.automatic', { title: view.automatic.title })
            : t('admin.courses.offer.automaticNone')}
        </option>
        {view.choices.map((course) => (
          <option key={course.id} value={course.id}>
            {course.title}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('admin.courses.offer.fieldPercent')}
          type="number"
          inputMode="numeric"
          min={1}
          max={OFFER_PERCENT_MAX}
          step={1}
          hint={t('admin.courses.offer.percentHint')}
          {...form.bind('discountPercent')}
        />
        <TextField
          label={t('admin.courses.offer.fieldHours')}
          type="number"
          inputMode="numeric"
          min={1}
          max={OFFER_HOURS_MAX}
          step={1}
          hint={t('admin.courses.offer.hoursHint')}
          {...form.bind('discountHours')}
        />
      </div>
      <FormFailure message={form.failure} />
      <div className="flex justify-end">
        <SubmitButton busy={form.busy} label={t('admin.courses.offer.save')} busyLabel={t('admin.saving')} />
      </div>
    </Form>
  );
}
