import { useCallback, useEffect, useRef, useState } from 'react';
import { filtersToQuery, parseFilters, type CourseFilters, type Currency } from '../../lib/course-filters.ts';
import { catalogueUrl } from '../../lib/course-links.ts';
import type { CataloguePageView } from '../../lib/course-view.ts';
import type { Language } from '../../i18n/languages.ts';
import { rememberedDisplayCurrency } from '../../stores/display-currency.ts';

type Status = 'ready' | 'loading' | 'error';

/**
 * The catalogue's state: the filters applied (mirrored in the URL and the browser's history), the ones
 * being edited, and the page of courses fetched for the applied ones.
 */
export function useCatalogue({
  lang,
  initialFilters,
  initialResult,
  defaultCurrency,
}: {
  lang: Language;
  initialFilters: CourseFilters;
  initialResult: CataloguePageView;
  defaultCurrency: Currency;
}) {
  const [applied, setApplied] = useState(initialFilters);
  const [draft, setDraft] = useState(initialFilters);
  const [result, setResult] = useState(initialResult);
  const [status, setStatus] = useState<Status>('ready');
  const inFlight = useRef<AbortController | null>(null);

  const load = useCallback(
    async (filters: CourseFilters) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setStatus('loading');
      try {
        const query = filtersToQuery(filters);
        const response = await fetch(`/api/courses${query}${query ? '&' : '?'}lang=${lang}`, { signal: controller.signal });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        setResult((await response.json()) as CataloguePageView);
        setStatus('ready');
      } catch (error) {
        if ((error as Error).name !== 'AbortError') setStatus('error');
      }
    },
    [lang],
  );

  const navigate = useCallback(
    (filters: CourseFilters, { replace = false } = {}) => {
      setApplied(filters);
      setDraft(filters);
      const url = catalogueUrl(lang, filtersToQuery(filters));
      if (replace) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
      void load(filters);
    },
    [lang, load],
  );

  // A currency the shopper chose before applies where the link names none and carries no price limit
  // (an old link's limit is in the language's default currency, and keeps that meaning). It lives in
  // this browser's storage, which the shared server render cannot know: it is applied after hydration,
  // as if the shopper had followed the link with it.
  useEffect(() => {
    const remembered = rememberedDisplayCurrency();
    if (remembered && remembered !== defaultCurrency && !initialFilters.currency && initialFilters.maxPrice === undefined)
      queueMicrotask(() => navigate({ ...initialFilters, currency: remembered }, { replace: true }));
  }, [defaultCurrency, initialFilters, navigate]);

  useEffect(() => {
    const onPopState = () => {
      const filters = parseFilters(new URLSearchParams(location.search));
      setApplied(filters);
      setDraft(filters);
      void load(filters);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [load]);

  return { applied, draft, setDraft, result, status, load, navigate };
}
