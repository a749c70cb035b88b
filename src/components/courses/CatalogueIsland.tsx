import { useState, type SubmitEvent } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { CourseCard } from './CourseCard.tsx';
import { PageLink, Select } from './CatalogueControls.tsx';
import { useCatalogue } from './use-catalogue.ts';
import {
  ALL_LANGUAGES,
  CURRENCIES,
  DIFFICULTIES,
  MAX_SEARCH_LENGTH,
  PRICE_FILTER_RANGES,
  SORTS,
  hasActiveFilters,
  type Currency,
  type CourseFilters,
  type Sort,
} from '../../lib/course-filters.ts';
import { convertLimit, currencySymbol, formatLimit, type Rates } from '../../lib/currency.ts';
import { rememberDisplayCurrency } from '../../stores/display-currency.ts';
import { COURSE_LANGUAGES } from '../../lib/course-languages.ts';
import { catalogueUrl } from '../../lib/course-links.ts';
import type { CataloguePageView, CategoryOption } from '../../lib/course-view.ts';
import type { Language } from '../../i18n/languages.ts';

const SORT_LABELS = { 'price-asc': 'catalogue.sortPriceAsc', 'price-desc': 'catalogue.sortPriceDesc' } as const;

/** How many filters a shopper chose, shown on the phone's Filters button. */
function activeCount(filters: CourseFilters): number {
  return (['search', 'category', 'language', 'difficulty', 'maxPrice'] as const).filter((key) => filters[key] !== undefined)
    .length;
}

interface Props {
  lang: Language;
  messages: IslandMessages;
  filters: CourseFilters;
  /** The interface language's display currency when the URL names none (the seller's setting). */
  defaultCurrency: Currency;
  rates: Rates;
  result: CataloguePageView;
  categories: CategoryOption[];
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  'catalogue.',
  'course.',
  'courseLanguage.',
  'currency.',
  'detail.tags',
  'difficulty.',
  'errors.',
  'nav.',
  'price.',
  'receipt.',
  'reviews.count',
  'twoFactor.requiredForAdmins',
  'twoFactor.secondFactorRequired',
);

export default function CatalogueIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <Catalogue {...props} />
    </I18nIsland>
  );
}

function Catalogue({ lang, filters: initialFilters, defaultCurrency, rates, result: initialResult, categories }: Props) {
  const { t } = useTranslation();
  // On a phone the filters wait behind a button, so the courses are on the first screen.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const { applied, draft, setDraft, result, status, load, navigate } = useCatalogue({
    lang,
    initialFilters,
    initialResult,
    defaultCurrency,
  });

  const currency = applied.currency ?? defaultCurrency;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { page: _page, ...rest } = draft;
    // The URL carries the currency with the amount, so a shared link means the same thing anywhere.
    if (rest.maxPrice !== undefined) rest.currency = currency;
    setFiltersOpen(false);
    navigate(rest);
  };

  /** Shows prices in another currency: an applied limit is carried over at the reference rates. */
  const changeCurrency = (chosen: Currency) => {
    rememberDisplayCurrency(chosen);
    const { page: _page, maxPrice, ...rest } = applied;
    const limit = maxPrice === undefined ? undefined : convertLimit(maxPrice, currency, chosen, rates);
    const next: CourseFilters = { ...rest, currency: chosen };
    if (limit !== undefined) next.maxPrice = limit;
    else if (chosen === defaultCurrency) delete next.currency;
    navigate(next);
  };

  /** Clears the filters; the chosen currency and order are how the shopper reads the list, not filters. */
  const clearFilters = () => {
    const kept: CourseFilters = {};
    if (applied.currency) kept.currency = applied.currency;
    if (applied.sort) kept.sort = applied.sort;
    navigate(kept);
  };

  const changeSort = (sort: Sort | undefined) => {
    const { page: _page, sort: _sort, ...rest } = applied;
    navigate(sort ? { ...rest, sort } : rest);
  };

  const update = <K extends keyof CourseFilters>(key: K, value: CourseFilters[K] | undefined) =>
    setDraft((current) => {
      const next = { ...current };
      if (value === undefined || value === '') delete next[key];
      else next[key] = value;
      return next;
    });

  const active = hasActiveFilters(applied);
  const range = PRICE_FILTER_RANGES[currency];
  const sliderValue = Math.min(draft.maxPrice ?? range.max, range.max);
  const priceText =
    draft.maxPrice === undefined
      ? t('catalogue.anyPrice')
      : t('catalogue.maxPriceValue', { value: formatLimit(sliderValue, currency, lang) });
  const display = { currency, rates };

  return (
    <div className="grid gap-8 lg:grid-cols-[18rem_1fr]">
      <div>
        <button
          type="button"
          onClick={() => setFiltersOpen((open) => !open)}
          aria-expanded={filtersOpen}
          aria-controls="catalogue-filters"
          className="w-full rounded-lg border border-gray-300 px-4 py-2 font-semibold lg:hidden"
        >
          {t(filtersOpen ? 'catalogue.hideFilters' : 'catalogue.showFilters')}
          {active && ` (${activeCount(applied)})`}
        </button>
        <form
          id="catalogue-filters"
          method="get"
          action={catalogueUrl(lang)}
          onSubmit={submit}
          className={`mt-4 space-y-5 lg:mt-0 lg:block ${filtersOpen ? '' : 'hidden'}`}
          aria-label={t('catalogue.filters')}
          role="search"
        >
          <div>
            <label htmlFor="catalogue-search" className="block text-sm font-semibold">
              {t('catalogue.searchLabel')}
            </label>
            <input
              id="catalogue-search"
              name="search"
              type="search"
              maxLength={MAX_SEARCH_LENGTH}
              value={draft.search ?? ''}
              onChange={(event) => update('search', event.target.value)}
              placeholder={t('catalogue.searchPlaceholder')}
              className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2"
            />
          </div>
          <Select
            id="catalogue-category"
            name="category"
            label={t('catalogue.category')}
            value={draft.category ?? ''}
            onChange={(value) => update('category', value)}
            options={[
              { value: '', label: t('catalogue.allCategories') },
              ...categories.map((c) => ({ value: c.slug, label: c.name })),
            ]}
          />
          <Select
            id="catalogue-language"
            name="language"
            label={t('catalogue.language')}
            value={draft.language ?? lang}
            onChange={(value) => update('language', value === lang ? undefined : (value as CourseFilters['language']))}
            options={[
              { value: ALL_LANGUAGES, label: t('catalogue.allLanguages') },
              ...COURSE_LANGUAGES.map((code) => ({ value: code, label: t(`courseLanguage.${code}`) })),
            ]}
          />
          <Select
            id="catalogue-difficulty"
            name="difficulty"
            label={t('catalogue.difficulty')}
            value={draft.difficulty ?? ''}
            onChange={(value) => update('difficulty', (value || undefined) as CourseFilters['difficulty'])}
            options={[
              { value: '', label: t('catalogue.allDifficulties') },
              ...DIFFICULTIES.map((d) => ({ value: d, label: t(`difficulty.${d}`) })),
            ]}
          />
          <div>
            <label htmlFor="catalogue-max-price" className="block text-sm font-semibold">
              {t('catalogue.maxPriceIn', { symbol: currencySymbol(currency, lang) })}
            </label>
            <input
              id="catalogue-max-price"
              name={draft.maxPrice === undefined ? undefined : 'maxPrice'}
              type="range"
              min={0}
              max={range.max}
              step={range.step}
              value={sliderValue}
              aria-valuetext={priceText}
              onChange={(event) => {
                const value = Number(event.target.value);
                update('maxPrice', value >= range.max ? undefined : value);
              }}
              className="mt-2 w-full accent-brand-600"
            />
            <p className="text-sm text-gray-600" aria-hidden="true">
              {priceText}
            </p>
            {/* Without JavaScript the form is a plain GET: the amount still travels with its currency. */}
            {(draft.maxPrice !== undefined || applied.currency) && <input type="hidden" name="currency" value={currency} />}
            {applied.sort && <input type="hidden" name="sort" value={applied.sort} />}
          </div>
          <button type="submit" className="w-full rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
            {t('catalogue.apply')}
          </button>
          {active && (
            <button
              type="button"
              onClick={clearFilters}
              className="w-full rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
            >
              {t('catalogue.clear')}
            </button>
          )}
        </form>
      </div>

      <section aria-labelledby="catalogue-results" aria-busy={status === 'loading'}>
        <h2 id="catalogue-results" className="sr-only">
          {t('nav.courses')}
        </h2>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <p className="text-sm font-medium text-gray-700" role="status">
            {status === 'loading' ? t('catalogue.loading') : t('catalogue.resultCount', { count: result.total })}
          </p>
          <div className="flex flex-wrap gap-3">
            <Select
              id="catalogue-sort"
              name="sort"
              label={t('catalogue.sort')}
              value={applied.sort ?? ''}
              onChange={(value) => changeSort(SORTS.find((sort) => sort === value))}
              options={[
                { value: '', label: t('catalogue.sortNewest') },
                ...SORTS.map((sort) => ({ value: sort, label: t(SORT_LABELS[sort]) })),
              ]}
            />
            <Select
              id="catalogue-currency"
              name="currency"
              label={t('catalogue.currency')}
              value={currency}
              onChange={(value) => {
                const chosen = CURRENCIES.find((code) => code === value);
                if (chosen) changeCurrency(chosen);
              }}
              options={CURRENCIES.map((code) => ({ value: code, label: t(`currency.${code}`) }))}
            />
          </div>
        </div>
        {status === 'loading' && (
          <div className="my-10 flex justify-center" aria-hidden="true">
            <span className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" />
          </div>
        )}
        {status === 'error' && (
          <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
            <p>{t('catalogue.error')}</p>
            <button type="button" onClick={() => void load(applied)} className="mt-2 font-semibold underline">
              {t('catalogue.retry')}
            </button>
          </div>
        )}
        {status === 'ready' && result.courses.length === 0 && (
          <div className="mt-8 rounded-xl border border-dashed border-gray-300 p-10 text-center">
            <p className="text-lg font-semibold">{t('catalogue.empty')}</p>
            <p className="mt-2 text-gray-600">{t('catalogue.emptyHint')}</p>
            <button
              type="button"
              onClick={clearFilters}
              className="mt-4 rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
            >
              {t('catalogue.clearAll')}
            </button>
          </div>
        )}
        {status !== 'loading' && result.courses.length > 0 && (
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
            {result.courses.map((course, index) => (
              <li key={course.id} className="flex">
                <CourseCard course={course} lang={lang} display={display} priority={index === 0} />
              </li>
            ))}
          </ul>
        )}
        {result.pageCount > 1 && status !== 'loading' && (
          <nav aria-label={t('catalogue.pagination')} className="mt-8 flex items-center justify-between">
            <PageLink
              lang={lang}
              filters={applied}
              page={result.page - 1}
              disabled={result.page <= 1}
              label={t('catalogue.previous')}
              onNavigate={navigate}
            />
            <span className="text-sm text-gray-600">{t('catalogue.pageOf', { page: result.page, pages: result.pageCount })}</span>
            <PageLink
              lang={lang}
              filters={applied}
              page={result.page + 1}
              disabled={result.page >= result.pageCount}
              label={t('catalogue.next')}
              onNavigate={navigate}
            />
          </nav>
        )}
      </section>
    </div>
  );
}
