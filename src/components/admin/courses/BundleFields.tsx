import { useTranslation } from '../../islands/I18nIsland.tsx';
import { CheckboxField } from '../../forms/fields.tsx';
import type { BundleChoice } from '../../../lib/admin/courses.schema.ts';
import type { Currency } from '../../../lib/course-filters.ts';
import { bundleSaving } from '../../../lib/bundle-price.ts';
import { formatMoney, toMinorUnits } from '../../../lib/money.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  /** Every course a bundle may hold; those in the bundle's currency are offered. */
  choices: BundleChoice[];
  currency: Currency;
  /** The form's values: the chosen ids comma-separated, the bundle's price as typed. */
  selected: string;
  price: string;
  reducesOwned: boolean;
  error: string | undefined;
  onSelected: (ids: string) => void;
  onReducesOwned: (checked: boolean) => void;
}

/**
 * A bundle's courses (decision 44), chosen by checkbox, with its saving against their separate prices
 * worked out as the seller chooses: computed, never typed. Whether owning some lowers the price.
 */
export function BundleFields({
  lang,
  choices,
  currency,
  selected,
  price,
  reducesOwned,
  error,
  onSelected,
  onReducesOwned,
}: Props) {
  const { t } = useTranslation();
  const chosen = selected.split(',').filter(Boolean);
  const offered = choices.filter((choice) => choice.currency === currency || chosen.includes(choice.id));
  const toggle = (id: string) => (checked: boolean) =>
    onSelected((checked ? [...chosen, id] : chosen.filter((other) => other !== id)).join(','));
  const priceMinor = Number.isFinite(Number(price)) ? toMinorUnits(Number(price)) : 0;
  const items = offered
    .filter((choice) => chosen.includes(choice.id))
    .map((choice) => ({ courseId: choice.id, priceMinor: choice.priceMinor }));
  const { separateMinor, savingMinor } = bundleSaving(priceMinor, items);
  return (
    <fieldset
      className="space-y-3 rounded-lg border border-gray-200 p-4"
      aria-describedby={`course-bundleCourses-hint${error ? ' course-bundleCourses-error' : ''}`}
      aria-invalid={error ? true : undefined}
    >
      <legend className="px-1 text-sm font-semibold">{t('admin.courses.bundleLegend')}</legend>
      <p id="course-bundleCourses-hint" className="text-sm text-gray-600">
        {t('admin.courses.bundleCoursesHint')}
      </p>
      {offered.length === 0 ? (
        <p className="text-sm text-amber-900">{t('admin.courses.bundleNoChoices')}</p>
      ) : (
        <ul className="max-h-60 space-y-2 overflow-y-auto">
          {offered.map((choice) => (
            <li key={choice.id}>
              <CheckboxField
                id={`course-bundle-${choice.id}`}
                label={`${choice.title} (${formatMoney(choice.priceMinor, choice.currency, lang)})`}
                checked={chosen.includes(choice.id)}
                onChange={toggle(choice.id)}
              />
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id="course-bundleCourses-error" role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      {items.length > 0 && (
        <p role="status" className="text-sm text-gray-700">
          {t('admin.courses.bundleSeparate', {
            separate: formatMoney(separateMinor, currency, lang),
            saving: formatMoney(savingMinor, currency, lang),
          })}
        </p>
      )}
      <CheckboxField
        id="course-bundleReducesOwned"
        label={t('admin.courses.fieldBundleReducesOwned')}
        hint={t('admin.courses.bundleReducesOwnedHint')}
        checked={reducesOwned}
        onChange={onReducesOwned}
      />
    </fieldset>
  );
}
