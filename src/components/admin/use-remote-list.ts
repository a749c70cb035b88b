import { useEffect, useEffectEvent, useRef, useState, type SubmitEvent } from 'react';
import type { ApiResult } from '../../lib/api-client.ts';

export interface ListQuery {
  search: string;
  page: number;
}

const SEARCH_DELAY_MS = 300;

/**
 * The one way an admin list talks to its endpoint: the search box is debounced into a query, each
 * query (search, page) is fetched once, a slower answer to an older query never replaces a newer one,
 * and `reload` fetches the current query again after a change. Starts from the server-rendered data.
 */
export function useRemoteList<Data>(
  initial: Data,
  fetchPage: (query: ListQuery) => Promise<ApiResult<Data>>,
  onFailure: () => void,
) {
  const [data, setData] = useState(initial);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState<ListQuery>({ search: '', page: 1 });
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const loaded = useRef(query);

  const load = useEffectEvent(async (next: ListQuery) => {
    const request = ++latest.current;
    setLoading(true);
    const result = await fetchPage(next);
    if (request !== latest.current) return;
    setLoading(false);
    if (result.ok) setData(result.data);
    else onFailure();
  });

  useEffect(() => {
    if (query === loaded.current) return;
    loaded.current = query;
    void load(query);
  }, [query]);

  useEffect(() => {
    const wanted = search.trim();
    if (wanted === query.search) return;
    const timer = setTimeout(() => setQuery({ search: wanted, page: 1 }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, query.search]);

  return {
    data,
    setData,
    search,
    setSearch,
    query,
    loading,
    goToPage: (page: number) => setQuery((current) => ({ ...current, page })),
    /** The search form's submit (Enter): search at once, without waiting for the debounce. */
    submitSearch: (event: SubmitEvent<HTMLFormElement>) => {
      event.preventDefault();
      setQuery({ search: search.trim(), page: 1 });
    },
    reload: () => load(query),
  };
}
