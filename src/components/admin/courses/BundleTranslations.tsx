import { useTranslation } from '../../islands/I18nIsland.tsx';
import { TextAreaField, TextField } from '../../forms/fields.tsx';
import {
  bundleDescriptionField,
  bundlePriceField,
  bundleTitleField,
  type CourseFormValues,
} from '../../../lib/admin/courses.schema.ts';
import { CURRENCIES } from '../../../lib/course-filters.ts';
import { LANGUAGES } from '../../../i18n/languages.ts';

type Bind = (name: keyof CourseFormValues) => {
  id: string;
  name: string;
  value: string;
  error: string | undefined;
  onChange: (event: { target: { value: string } }) => void;
};

interface Props {
  /** The bundle's own language and currency: the title, description and price fields above hold those. */
  language: string;
  currency: string;
  bind: Bind;
}

/**
 * A bundle's text in every other interface language (each required) and its price in every other
 * currency (empty: not sold in it), decision 44. The saving is never typed: it is computed in the
 * currency its courses are priced in.
 */
export function BundleTranslations({ language, currency, bind }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <fieldset className="space-y-3 rounded-lg border border-gray-200 p-4">
        <legend className="px-1 text-sm font-semibold">{t('admin.courses.bundleTextsLegend')}</legend>
        <p className="text-sm text-gray-600">{t('admin.courses.bundleTextsHint')}</p>
        {LANGUAGES.filter((lang) => lang !== language).map((lang) => (
          <div key={lang} className="space-y-3">
            <TextField
              label={t(`admin.courses.fieldBundleTitle.${lang}`)}
              required
              maxLength={200}
              lang={lang}
              {...bind(bundleTitleField(lang))}
            />
            <TextAreaField
              label={t(`admin.courses.fieldBundleDescription.${lang}`)}
              required
              rows={3}
              maxLength={5000}
              lang={lang}
              {...bind(bundleDescriptionField(lang))}
            />
          </div>
        ))}
      </fieldset>
      <fieldset className="space-y-3 rounded-lg border border-gray-200 p-4">
        <legend className="px-1 text-sm font-semibold">{t('admin.courses.bundlePricesLegend')}</legend>
        <p className="text-sm text-gray-600">{t('admin.courses.bundlePricesHint')}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {CURRENCIES.filter((other) => other !== currency).map((other) => (
            <TextField
              key={other}
              label={t('admin.courses.fieldBundlePrice', { currency: other })}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              {...bind(bundlePriceField(other))}
            />
          ))}
        </div>
      </fieldset>
    </>
  );
}
