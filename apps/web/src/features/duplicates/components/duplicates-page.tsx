import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { listDismissals, listDuplicates, undismiss } from '../api/duplicates.ts';
import { Group } from './group.tsx';

export default function DuplicatesPage() {
  return (
    <KeyGate scope="curate">
      <Duplicates />
    </KeyGate>
  );
}

function Duplicates() {
  const { t } = useI18n();
  const id = useId();
  const [done, setDone] = useState<string | null>(null);
  const query = useInfiniteQuery({
    queryKey: ['duplicates'],
    queryFn: ({ pageParam, signal }) => listDuplicates(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const groups = query.data?.pages.flatMap((p) => p.groups) ?? [];
  return (
    <section className="duplicates-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{t.duplicatesTitle}</h1>
      <p className="muted">{t.duplicatesHelp}</p>
      <p role="status" className="note">
        {done}
      </p>
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : query.isError ? (
        <ErrorNote error={query.error} onRetry={() => query.refetch()} />
      ) : groups.length === 0 ? (
        <p>{t.noDuplicates}</p>
      ) : (
        <ol className="dup-groups">
          {groups.map((group) => (
            <li key={`${group.reason} ${group.key}`}>
              <Group group={group} onDone={setDone} />
            </li>
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {t.loadMore}
        </button>
      )}
      <Dismissed />
    </section>
  );
}

/** The pairs marked as distinct, newest first, each with an undo. */
function Dismissed() {
  const { t, lang } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['duplicates', 'dismissed'],
    queryFn: ({ signal }) => listDismissals(signal),
  });
  const undo = useMutation({
    mutationFn: (slugs: string[]) => undismiss(slugs),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['duplicates'] }),
  });
  const dismissals = query.data?.dismissals ?? [];
  return (
    <section className="dismissed" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.showDismissed}</h2>
      {query.isError && <ErrorNote error={query.error} />}
      {dismissals.length === 0 && !query.isPending && <p className="muted">{t.noDismissed}</p>}
      <ul>
        {dismissals.map((d) => {
          const slugs = d.projects.map((p) => p.slug);
          return (
            <li key={slugs.join(' ')}>
              {d.projects.map((p) => (lang === 'en' ? (p.nameEn ?? p.name) : p.name)).join(' ≠ ')}{' '}
              <button
                type="button"
                className="ghost"
                disabled={undo.isPending}
                onClick={() => undo.mutate(slugs)}
              >
                {t.undismiss} ({slugs.join(', ')})
              </button>
            </li>
          );
        })}
      </ul>
      {undo.isError && <ErrorNote error={undo.error} />}
    </section>
  );
}
