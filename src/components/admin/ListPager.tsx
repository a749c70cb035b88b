import { useTranslation } from '../islands/I18nIsland.tsx';

/** Below a paged admin list: previous, "page n of m", next. Nothing when everything fits on one page. */
export function ListPager({ page, pageCount, onPage }: { page: number; pageCount: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={t('catalogue.pagination')} className="flex items-center justify-between gap-3">
      <button
        type="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        className="rounded-lg border border-gray-300 px-3 py-1.5 font-medium hover:bg-gray-50 disabled:opacity-50"
      >
        {t('catalogue.previous')}
      </button>
      <span className="text-sm text-gray-600">{t('catalogue.pageOf', { page, pages: pageCount })}</span>
      <button
        type="button"
        disabled={page >= pageCount}
        onClick={() => onPage(page + 1)}
        className="rounded-lg border border-gray-300 px-3 py-1.5 font-medium hover:bg-gray-50 disabled:opacity-50"
      >
        {t('catalogue.next')}
      </button>
    </nav>
  );
}
