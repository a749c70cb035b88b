import { useTranslation } from '../islands/I18nIsland.tsx';
import { useStore } from '@nanostores/react';
import { $ownedCourses, downloadPath, ownedPurchaseOf } from '../../stores/owned.ts';
import type { BundleSummary, CourseSummaryView } from '../../lib/course-view.ts';
import { formatMoney } from '../../lib/money.ts';
import { COVER_FALLBACK_URL, checkoutUrl, courseUrl } from '../../lib/course-links.ts';
import { approxPrice } from '../../lib/approx-prices.ts';
import { priceWords } from '../../lib/price-words.ts';
import type { Currency } from '../../lib/course-filters.ts';
import type { Rates } from '../../lib/currency.ts';
import type { Language } from '../../i18n/languages.ts';
import { RatingSummary } from '../reviews/RatingSummary.tsx';

export const CARD_TAG_LIMIT = 3;

const DIFFICULTY_STYLE = {
  beginner: 'bg-emerald-100 text-emerald-800',
  intermediate: 'bg-amber-100 text-amber-800',
  advanced: 'bg-rose-100 text-rose-800',
} as const;

/** `priority`: the first card of a page, its cover likely the largest paint: loaded at once, first. */
export function CourseCard({
  course,
  lang,
  display,
  priority = false,
}: {
  course: CourseSummaryView;
  lang: Language;
  /** The shopper's display currency: a price in another currency gets an approximate one beside it. */
  display?: { currency: Currency; rates: Rates };
  priority?: boolean;
}) {
  const { t } = useTranslation();
  const free = course.priceMinor === 0;
  const { price, suggestion } = priceWords(course, lang, t);
  const extraTags = course.tags.length - CARD_TAG_LIMIT;
  const owned = ownedPurchaseOf(useStore($ownedCourses), course.id);
  // A bundle without a text in the page's language shows its own, marked as such (decision 44).
  const textLang = course.textLanguage === lang ? undefined : course.textLanguage;
  return (
    <article className="flex flex-1 flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm transition hover:shadow-md">
      <a href={courseUrl(lang, course.id)} className="relative block aspect-video bg-gray-100" tabIndex={-1} aria-hidden="true">
        <img
          src={course.coverImageUrl ?? COVER_FALLBACK_URL}
          data-fallback={COVER_FALLBACK_URL}
          alt=""
          width={800}
          height={450}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          className="h-full w-full object-cover"
        />
        <span
          className={`absolute left-3 top-3 rounded-full px-2.5 py-0.5 text-xs font-semibold ${DIFFICULTY_STYLE[course.difficulty]}`}
        >
          {t(`difficulty.${course.difficulty}`)}
        </span>
        <span className="absolute right-3 top-3 rounded-full bg-white px-2.5 py-0.5 text-sm font-bold text-gray-900 shadow">
          {price}
          {display && !free && !suggestion && <ApproxPrice approx={approxPrice(course, display, lang)} />}
        </span>
      </a>
      <div className="flex flex-1 flex-col p-5">
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">{course.categoryName}</p>
        {course.bundle && <BundleBadge bundle={course.bundle} currency={course.currency} lang={lang} />}
        <h3 className="mt-1 text-lg font-bold leading-snug" lang={textLang}>
          <a href={courseUrl(lang, course.id)} className="hover:text-brand-700">
            {course.title}
          </a>
        </h3>
        <RatingSummary rating={course.rating} lang={lang} t={t} className="mt-1 text-sm" />
        <p className="mt-2 line-clamp-3 text-sm text-gray-600" lang={textLang}>
          {course.description}
        </p>
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600">
          <li>{t('course.minutes', { count: course.durationMinutes })}</li>
          <li>{course.students > 0 ? t('course.students', { count: course.students }) : t('course.newCourse')}</li>
          <li>{t('course.format')}</li>
        </ul>
        <p className="mt-2 text-sm text-gray-700">{t('course.by', { name: course.instructorName })}</p>
        {course.tags.length > 0 && (
          <ul className="mt-3 flex flex-wrap gap-1.5" aria-label={t('detail.tags')}>
            {course.tags.slice(0, CARD_TAG_LIMIT).map((tag) => (
              <li key={tag} className="rounded bg-gray-100 px-2 py-0.5 text-xs text-gray-700">
                {tag}
              </li>
            ))}
            {extraTags > 0 && <li className="px-1 py-0.5 text-xs text-gray-500">{t('course.moreTags', { count: extraTags })}</li>}
          </ul>
        )}
        <a
          href={checkoutUrl(lang, course.id, course.bundle ? course.currency : undefined)}
          hidden={Boolean(owned)}
          data-buy-for={course.id}
          className="mt-5 block rounded-lg bg-brand-600 px-4 py-2 text-center font-semibold text-white hover:bg-brand-700"
          aria-label={`${free ? t('course.getForFree') : t('course.buyNow')}: ${course.title}`}
        >
          {free ? t('course.getForFree') : t('course.buyNow')}
        </a>
        <p
          hidden={!owned}
          data-owned-for={course.id}
          className="mt-5 rounded-lg bg-emerald-50 px-4 py-2 text-center text-sm font-semibold text-emerald-800"
        >
          ✓ {t('course.owned')} ·{' '}
          <a
            href={owned ? downloadPath(owned) : '#'}
            data-owned-download
            className="underline"
            aria-label={`${t('course.ownedDownload')}: ${course.title}`}
          >
            {t('course.ownedDownload')}
          </a>
        </p>
      </div>
    </article>
  );
}

/** "Bundle · 3 courses" and what it saves against buying them one by one (computed by the server). */
function BundleBadge({ bundle, currency, lang }: { bundle: BundleSummary; currency: Currency; lang: Language }) {
  const { t } = useTranslation();
  return (
    <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm">
      <span className="rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-800">
        {t('course.bundleBadge', { count: bundle.courseCount })}
      </span>
      {bundle.savingMinor !== null && bundle.separateMinor !== null && bundle.savingMinor > 0 && (
        <span className="font-medium text-emerald-800">
          {t('course.bundleSaving', {
            amount: formatMoney(bundle.savingMinor, currency, lang),
            separate: formatMoney(bundle.separateMinor, currency, lang),
          })}
        </span>
      )}
    </p>
  );
}

function ApproxPrice({ approx }: { approx: ReturnType<typeof approxPrice> }) {
  const { t } = useTranslation();
  return (
    <span
      {...approx.data}
      hidden={approx.hidden}
      title={t('price.approxHint')}
      className="ml-1 text-xs font-medium text-gray-600"
    >
      <span aria-hidden="true">≈ </span>
      <span data-approx-amount>{approx.text}</span>
    </span>
  );
}
