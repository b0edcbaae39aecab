import { useI18n } from '../lib/i18n/i18n.tsx';

/** The "Load more" row under a paged list (an infinite query); nothing on the last page. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  const { t } = useI18n();
  if (!query.hasNextPage) return null;
  return (
    <div className="paging">
      <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
        {query.isFetchingNextPage ? t.loading : t.loadMore}
      </button>
    </div>
  );
}
