import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { LoadMore } from '../../../components/load-more.tsx';
import { paths, searchHref, tagsHref } from '../../../config/paths.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { useCan } from '../../../lib/own-key.ts';
import { Link, navigate, useLocation } from '../../../lib/router.tsx';
import { findTags, type TagsReply } from '../api/find-tags.ts';

export function TagsPage() {
  const { t, lang } = useI18n();
  const { search } = useLocation();
  const id = useId();
  // a key known to lack curate is not offered the curation page
  const { can: canCurate } = useCan('curate');
  const sort = search.get('sort') === 'name' ? 'name' : 'count';
  const q = search.get('q')?.trim() ?? '';
  const [text, setText] = useState(q);
  useEffect(() => {
    const next = text.trim();
    if (next === q) return;
    const timer = setTimeout(() => {
      navigate(tagsHref({ q: next, sort }), { replace: true });
    }, 150);
    return () => clearTimeout(timer);
  }, [text, q, sort]);

  const query = useInfiniteQuery({
    queryKey: ['tags', q, sort],
    queryFn: ({ pageParam, signal }) => findTags({ q: q || undefined, sort, limit: 100 }, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TagsReply) => (last.hasMore ? last.nextCursor : null),
    placeholderData: keepPreviousData,
  });
  const tags = query.data?.pages.flatMap((p) => p.tags) ?? [];
  return (
    <section className="tags-page" aria-labelledby={`${id}-h`}>
      <div className="results-head">
        <h1 id={`${id}-h`}>{t.tagsTitle}</h1>
        <div className="sort">
          <label htmlFor={`${id}-q`}>{t.tagFilter}</label>
          <input
            id={`${id}-q`}
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoComplete="off"
          />
          <label htmlFor={`${id}-sort`}>{t.sortBy}</label>
          <select
            id={`${id}-sort`}
            value={sort}
            onChange={(e) => navigate(tagsHref({ q, sort: e.target.value }))}
          >
            <option value="count">{t.tagCount}</option>
            <option value="name">{t.sortName}</option>
          </select>
        </div>
      </div>
      {canCurate && (
        <p className="curate-link">
          <Link href={paths.curateTags}>{t.curateTagsLink}</Link>
        </p>
      )}
      {query.isError && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
      {query.isPending && <p className="muted">{t.loading}</p>}
      <ul className="tag-cloud">
        {tags.map((tag) => {
          const [name, other] = localName(lang, tag.name, tag.nameEn);
          return (
            <li key={tag.id} data-tag={tag.slug}>
              <Link href={searchHref({ tag: [tag.slug] })} className="tag-card">
                <span className="tag-name">{name}</span>
                {other && <span className="other-name">{other}</span>}
                <span className="count">{t.projectsCount(tag.projectCount)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <LoadMore query={query} />
    </section>
  );
}
