import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { api, LINK_TYPES, type SearchItem, type SearchParams, type SearchReply } from '../api.ts';
import { ErrorNote } from '../components.tsx';
import { localName, type Messages, useI18n } from '../i18n.tsx';
import { Link, navigate, useLocation } from '../router.tsx';

const DEBOUNCE_MS = 80;
const PAGE_SIZE = 20;

/** The search as the URL holds it (so it can be shared): `/?q=…&tag=…&status=…&sort=…`. */
function readParams(search: URLSearchParams): SearchParams {
  const params: SearchParams = { limit: PAGE_SIZE };
  const q = search.get('q')?.trim();
  if (q) params.q = q.slice(0, 200);
  const tags = search.getAll('tag');
  if (tags.length) params.tag = tags;
  if (search.get('tagMode') === 'any') params.tagMode = 'any';
  const status = search.get('status');
  if (status === 'ACTIVE' || status === 'ARCHIVED') params.status = status;
  const linkTypes = search.getAll('linkType').filter((t) => (LINK_TYPES as string[]).includes(t));
  if (linkTypes.length) params.linkType = linkTypes;
  const sort = search.get('sort');
  if (sort === 'updated' || sort === 'created' || sort === 'name' || (sort === 'relevance' && q))
    params.sort = sort;
  const order = search.get('order');
  if (order === 'asc' || order === 'desc') params.order = order;
  return params;
}

export function searchHref(params: SearchParams): string {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  for (const tag of params.tag ?? []) search.append('tag', tag);
  if (params.tagMode === 'any') search.set('tagMode', 'any');
  if (params.status) search.set('status', params.status);
  for (const type of params.linkType ?? []) search.append('linkType', type);
  if (params.sort) search.set('sort', params.sort);
  if (params.order) search.set('order', params.order);
  const text = search.toString();
  return text ? `/?${text}` : '/';
}

function toggle(list: string[] | undefined, value: string): string[] {
  const current = list ?? [];
  return current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
}

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
    queryFn: ({ pageParam, signal }) => api.search(params, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: SearchReply) => (last.hasMore ? last.nextCursor : null),
    placeholderData: keepPreviousData,
  });
  const { sort: _sort, order: _order, limit: _l, ...filters } = params;
  const facets = useQuery({
    queryKey: ['facets', filters],
    queryFn: ({ signal }) => api.search({ ...filters, limit: 1 }, null, signal, true),
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

function SortControls({
  params,
  set,
  t,
}: {
  params: SearchParams;
  set: (change: Partial<SearchParams>) => void;
  t: Messages;
}) {
  const id = useId();
  const sort = params.sort ?? (params.q ? 'relevance' : 'updated');
  const order = params.order ?? (sort === 'name' ? 'asc' : 'desc');
  return (
    <div className="sort">
      <label htmlFor={`${id}-sort`}>{t.sortBy}</label>
      <select
        id={`${id}-sort`}
        value={sort}
        onChange={(e) => set({ sort: e.target.value, order: undefined })}
      >
        {params.q && <option value="relevance">{t.sortRelevance}</option>}
        <option value="updated">{t.sortUpdated}</option>
        <option value="created">{t.sortCreated}</option>
        <option value="name">{t.sortName}</option>
      </select>
      <label htmlFor={`${id}-order`}>{t.order}</label>
      <select id={`${id}-order`} value={order} onChange={(e) => set({ order: e.target.value })}>
        <option value="desc">{t.orderDesc}</option>
        <option value="asc">{t.orderAsc}</option>
      </select>
    </div>
  );
}

function Facets({
  reply,
  params,
  set,
  t,
}: {
  reply: SearchReply | undefined;
  params: SearchParams;
  set: (change: Partial<SearchParams>) => void;
  t: Messages;
}) {
  const { lang } = useI18n();
  const facets = reply?.facets;
  const statusCounts = new Map((facets?.status ?? []).map((f) => [f.value, f.count]));
  const total = [...statusCounts.values()].reduce((a, b) => a + b, 0);
  return (
    <>
      <fieldset className="facet">
        <legend>{t.facetStatus}</legend>
        {(['', 'ACTIVE', 'ARCHIVED'] as const).map((value) => (
          <label key={value || 'all'} className="facet-option">
            <input
              type="radio"
              name="status"
              checked={(params.status ?? '') === value}
              onChange={() => set({ status: value || undefined })}
            />
            <span className="facet-name">{value ? t[value] : t.all}</span>
            <span className="count">{value ? (statusCounts.get(value) ?? 0) : total}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="facet">
        <legend>{t.facetLinkTypes}</legend>
        {(facets?.linkTypes ?? []).map((f) => (
          <label key={f.value} className="facet-option">
            <input
              type="checkbox"
              checked={params.linkType?.includes(f.value) ?? false}
              onChange={() => set({ linkType: toggle(params.linkType, f.value) })}
            />
            <span className="facet-name">{t[f.value as keyof Messages] as string}</span>
            <span className="count">{f.count}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="facet facet-tags">
        <legend>{t.facetTags}</legend>
        {(facets?.tags ?? []).map((f) => (
          <label key={f.slug} className="facet-option" data-tag={f.slug}>
            <input
              type="checkbox"
              checked={params.tag?.includes(f.slug) ?? false}
              onChange={() => set({ tag: toggle(params.tag, f.slug) })}
            />
            <span className="facet-name">{localName(lang, f.name, f.nameEn)[0]}</span>
            <span className="count">{f.count}</span>
          </label>
        ))}
        {(params.tag?.length ?? 0) > 1 && (
          <label className="facet-option">
            <input
              type="checkbox"
              checked={params.tagMode === 'any'}
              onChange={(e) => set({ tagMode: e.target.checked ? 'any' : undefined })}
            />
            <span className="facet-name">{t.anyTag}</span>
          </label>
        )}
      </fieldset>
    </>
  );
}

function ResultItem({ item }: { item: SearchItem }) {
  const { t, lang } = useI18n();
  const [name, other] = localName(lang, item.name, item.nameEn);
  const description = lang === 'en' && item.descriptionEn ? item.descriptionEn : item.description;
  const types = [...new Set(item.links.map((l) => l.type))];
  return (
    <li className="result" data-slug={item.slug}>
      <div className="result-title">
        <h2>
          <Link href={`/projects/${encodeURIComponent(item.slug)}`}>{name}</Link>
        </h2>
        {other && <span className="other-name">{other}</span>}
        {item.status === 'ARCHIVED' && <span className="badge muted-badge">{t.ARCHIVED}</span>}
      </div>
      <p className="description">{description}</p>
      <div className="result-meta">
        <ul className="chips" aria-label={t.tags}>
          {item.tags.map((tag) => (
            <li key={tag.id}>
              <Link className="chip" href={searchHref({ tag: [tag.slug] })}>
                {localName(lang, tag.name, tag.nameEn)[0]}
              </Link>
            </li>
          ))}
        </ul>
        <span className="link-types">{types.map((type) => t[type]).join(' · ')}</span>
      </div>
    </li>
  );
}
