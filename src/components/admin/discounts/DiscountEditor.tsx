import { useTranslation } from '../../islands/I18nIsland.tsx';
import { CheckboxField, SelectField, TextField } from '../../forms/fields.tsx';
import { Form, FormActions, useForm } from '../../forms/use-form.tsx';
import { DiscountSchema, type AdminDiscountRow } from '../../../lib/admin/discounts.schema.ts';
import { CURRENCIES } from '../../../lib/course-filters.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { toMajorUnits } from '../../../lib/money.ts';
import { showToast } from '../../../stores/toasts.ts';

export interface CourseChoice {
  id: string;
  title: string;
  currency: string;
}

interface Props {
  discount?: AdminDiscountRow | undefined;
  courses: CourseChoice[];
  onSaved: () => void;
  onCancel: () => void;
}

const ID = 'discount';

/** A moment as a datetime-local input shows it: the admin's own clock. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function DiscountEditor({ discount, courses, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const amount = (currency: (typeof CURRENCIES)[number]) => {
    const minor = discount?.amounts[currency];
    return minor === undefined ? '' : String(toMajorUnits(minor));
  };
  const form = useForm(
    DiscountSchema,
    {
      code: discount?.code ?? '',
      kind: discount?.kind ?? 'percent',
      percent: discount?.percent === null || discount?.percent === undefined ? '' : String(discount.percent),
      amountUSD: amount('USD'),
      amountEUR: amount('EUR'),
      amountTRY: amount('TRY'),
      allCourses: discount?.allCourses ?? true,
      courseIds: (discount?.courseIds ?? []).join(','),
      startsAt: localInput(discount?.startsAt ?? null),
      endsAt: localInput(discount?.endsAt ?? null),
      maxRedemptions: discount?.maxRedemptions ? String(discount.maxRedemptions) : '',
      oncePerBuyer: discount?.oncePerBuyer ?? false,
      active: discount?.active ?? true,
    },
    { idPrefix: ID, onFailure: () => showToast('error', t('admin.discounts.saveFailed')) },
  );
  const { values, set } = form;
  const chosen = new Set(values.courseIds.split(',').filter(Boolean));
  const toggleCourse = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    set('courseIds', [...next].join(','));
  };

  const submit = form.handleSubmit(async (data) => {
    const result = discount
      ? await requestJson('PUT', `/api/admin/discounts/${discount.id}`, data)
      : await requestJson('POST', '/api/admin/discounts', data);
    if (result.ok) onSaved();
    return result;
  });

  return (
    <Form onSubmit={submit} className="space-y-4">
      <TextField
        label={t('admin.discounts.code')}
        required
        autoCapitalize="characters"
        spellCheck={false}
        hint={t('admin.discounts.codeHint')}
        {...form.bind('code')}
      />
      <SelectField label={t('admin.discounts.kind')} {...form.bind('kind')}>
        <option value="percent">{t('admin.discounts.kindPercent')}</option>
        <option value="fixed">{t('admin.discounts.kindFixed')}</option>
      </SelectField>
      {values.kind === 'percent' ? (
        <TextField label={t('admin.discounts.percent')} inputMode="numeric" required {...form.bind('percent')} />
      ) : (
        <fieldset className="space-y-2">
          <legend className="text-sm text-gray-600">{t('admin.discounts.amountHint')}</legend>
          <div className="grid gap-3 sm:grid-cols-3">
            {CURRENCIES.map((currency) => (
              <TextField
                key={currency}
                label={t('admin.discounts.amountFor', { currency })}
                inputMode="decimal"
                {...form.bind(`amount${currency}`)}
              />
            ))}
          </div>
        </fieldset>
      )}
      <CheckboxField
        id={`${ID}-allCourses`}
        label={t('admin.discounts.allCourses')}
        checked={values.allCourses}
        onChange={(checked) => set('allCourses', checked)}
      />
      {!values.allCourses && (
        <fieldset aria-describedby={form.errors.courseIds ? `${ID}-courseIds-error` : undefined}>
          <legend className="text-sm font-semibold">{t('admin.discounts.courses')}</legend>
          <ul
            id={`${ID}-courseIds`}
            tabIndex={-1}
            className="mt-2 max-h-48 space-y-1 overflow-y-auto rounded-lg border border-gray-200 p-2"
          >
            {courses.map((course) => (
              <li key={course.id}>
                <CheckboxField
                  id={`${ID}-course-${course.id}`}
                  label={`${course.title} (${course.currency})`}
                  checked={chosen.has(course.id)}
                  onChange={(checked) => toggleCourse(course.id, checked)}
                />
              </li>
            ))}
          </ul>
          {form.errors.courseIds && (
            <p id={`${ID}-courseIds-error`} className="mt-1 text-sm text-red-700">
              {t(form.errors.courseIds)}
            </p>
          )}
        </fieldset>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label={t('admin.discounts.startsAt')} type="datetime-local" {...form.bind('startsAt')} />
        <TextField label={t('admin.discounts.endsAt')} type="datetime-local" {...form.bind('endsAt')} />
      </div>
      <TextField label={t('admin.discounts.maxRedemptions')} inputMode="numeric" {...form.bind('maxRedemptions')} />
      <CheckboxField
        id={`${ID}-oncePerBuyer`}
        label={t('admin.discounts.oncePerBuyer')}
        checked={values.oncePerBuyer}
        onChange={(checked) => set('oncePerBuyer', checked)}
      />
      <CheckboxField
        id={`${ID}-active`}
        label={t('admin.discounts.active')}
        checked={values.active}
        onChange={(checked) => set('active', checked)}
      />
      <FormActions
        failure={form.failure}
        busy={form.busy}
        label={t('admin.discounts.save')}
        busyLabel={t('admin.discounts.saving')}
        cancelLabel={t('admin.cancel')}
        onCancel={onCancel}
      />
    </Form>
  );
}
