import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { type SearchParams, searchHref } from '../../../config/paths.ts';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { navigate, useLocation } from '../../../lib/router.tsx';
import { findProjects, type SearchReply } from '../api/find-projects.ts';
import { readParams } from '../utils/search-params.ts';
import { Facets } from './facets.tsx';
import { ResultItem } from './result-item.tsx';
import { SortControls } from './sort-controls.tsx';

const DEBOUNCE_MS = 80;

export function SearchPage() {
  const { t } = useI18n();
  const { search } = useLocation();
  const params = readParams(search);
  const { limit: _limit, ...shown } = params;
  const id = useId();

  // The box updates the URL (replacing, not pushing) after a pause in typing.
  const [text, setText] = useState(params.q ?? '');
  const committed = useRef(params.q ?? '');
  useEffect(() => {
    // The URL changed from outside (back button, a tag link): show its query in the box.
    if ((params.q ?? '') !== committed.current) {
      committed.current = params.q ?? '';
      setText(params.q ?? '');
    }
  }, [params.q]);
  useEffect(() => {
    const q = text.trim();
    if (q === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = q;
      // The filters as they are now (they may have changed while typing), with the new text.
      const { limit: _, ...current } = readParams(new URLSearchParams(window.location.search));
      const next: SearchParams = { ...current, q };
      if (!q && next.sort === 'relevance') delete next.sort;
      navigate(searchHref(next), { replace: true });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  // Results and facet counts are two requests: the results show as soon as they come, and the
  // counts (which cost the server more) neither hold them up nor are asked again for each page
  // or another sort order.
  const query = useInfiniteQuery({
    queryKey: ['search', params],
    queryFn: ({ pageParam, signal }) => findProjects(params, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: SearchReply) => (last.hasMore ? last.nextCursor : null),
    placeholderData: keepPreviousData,
  });
  const { sort: _sort, order: _order, limit: _l, ...filters } = params;
  const facets = useQuery({
    queryKey: ['facets', filters],
    queryFn: ({ signal }) => findProjects({ ...filters, limit: 1 }, null, signal, true),
    placeholderData: keepPreviousData,
  });
  const pages = query.data?.pages ?? [];
  const first = pages[0];
  const items = pages.flatMap((p) => p.projects);
  const set = (change: Partial<SearchParams>) => navigate(searchHref({ ...shown, ...change }));
  const filterCount = (params.tag?.length ?? 0) + (params.status ? 1 : 0) + (params.linkType?.length ?? 0);
  const filtered = filterCount > 0;
  // At phone width the filters fold away behind a button (always shown on wider screens: CSS).
  const [filtersOpen, setFiltersOpen] = useState(false);

  return (
    <div className="search-page">
      <search>
        <form className="search-box" onSubmit={(e) => e.preventDefault()}>
          <label htmlFor={`${id}-q`} className="visually-hidden">
            {t.searchLabel}
          </label>
          <input
            id={`${id}-q`}
            type="search"
            value={text}
            maxLength={200}
            placeholder={t.searchPlaceholder}
            onChange={(e) => setText(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            // biome-ignore lint/a11y/noAutofocus: the search box is the page
            autoFocus
          />
        </form>
      </search>
      <div className="search-layout">
        <aside className="facets" aria-label={t.filters} data-open={filtersOpen}>
          <button
            type="button"
            className="ghost filters-toggle"
            aria-expanded={filtersOpen}
            aria-controls={`${id}-facets`}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {t.filters}
            {filterCount > 0 && ` (${filterCount})`}
          </button>
          <div id={`${id}-facets`} className="facet-groups">
            <Facets reply={facets.data} params={params} set={set} t={t} />
          </div>
          {filtered && (
            <button
              type="button"
              className="ghost"
              onClick={() =>
                set({ tag: undefined, status: undefined, linkType: undefined, tagMode: undefined })
              }
            >
              {t.clearFilters}
            </button>
          )}
        </aside>
        <section className="results" aria-labelledby={`${id}-count`}>
          <div className="results-head">
            <h1 id={`${id}-count`} aria-live="polite">
              {first ? t.results(first.total, first.totalExact) : t.loading}
            </h1>
            <SortControls params={params} set={set} t={t} />
          </div>
          {query.isError && !first && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
          {first && items.length === 0 && <p className="muted">{t.noResults}</p>}
          <ol
            className="result-list"
            data-query={query.isPlaceholderData ? undefined : (params.q ?? '')}
            aria-busy={query.isFetching}
          >
            {items.map((item) => (
              <ResultItem key={item.id} item={item} />
            ))}
          </ol>
          {first && (
            <div className="paging">
              <span className="muted">{t.shown(items.length, first.total)}</span>
              {query.hasNextPage && (
                <button
                  type="button"
                  onClick={() => query.fetchNextPage()}
                  disabled={query.isFetchingNextPage}
                >
                  {query.isFetchingNextPage ? t.loading : t.loadMore}
                </button>
              )}
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
