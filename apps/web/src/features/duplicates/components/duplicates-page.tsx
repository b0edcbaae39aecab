import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { projectHref } from '../../../config/paths.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { type DuplicateGroup, listDuplicates, mergeProject } from '../api/duplicates.ts';

export default function DuplicatesPage() {
  return (
    <KeyGate>
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
              <Group group={group} onMerged={setDone} />
            </li>
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {t.loadMore}
        </button>
      )}
    </section>
  );
}

/** One group, its projects side by side: pick the one to keep, then merge another into it. */
function Group({ group, onMerged }: { group: DuplicateGroup; onMerged: (note: string) => void }) {
  const { t, lang } = useI18n();
  const client = useQueryClient();
  const id = useId();
  // The oldest is kept unless the operator picks another.
  const [keep, setKeep] = useState(group.projects[0]!.slug);
  const [asking, setAsking] = useState<string | null>(null);
  const merge = useMutation({
    mutationFn: (from: string) => mergeProject(from, keep),
    onSuccess: (reply) => {
      setAsking(null);
      onMerged(t.mergedNote(reply.data.merged.slug, reply.data.project.slug));
      void client.invalidateQueries({ queryKey: ['duplicates'] });
      void client.invalidateQueries({ queryKey: ['project'] });
    },
  });
  return (
    <article className="card dup-group" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        <span className="badge">{t[`reason_${group.reason}`]}</span> <code>{group.key}</code>
      </h2>
      <fieldset className="dup-projects">
        <legend className="visually-hidden">{t.keep}</legend>
        {group.projects.map((p) => {
          const [name, other] = localName(lang, p.name, p.nameEn);
          const kept = p.slug === keep;
          return (
            <div key={p.id} className={`dup-project${kept ? ' kept' : ''}`}>
              <h3>
                <Link href={projectHref(p.slug)}>{name}</Link>
                {other && <span className="other-name">{other}</span>}
              </h3>
              <p className="muted">
                <code>{p.slug}</code>
              </p>
              <label>
                <input type="radio" name={`${id}-keep`} checked={kept} onChange={() => setKeep(p.slug)} />{' '}
                {kept ? t.kept : t.keep}
              </label>
              {!kept && asking !== p.slug && (
                <button type="button" onClick={() => setAsking(p.slug)}>
                  {t.mergeInto(p.slug, keep)}
                </button>
              )}
              {!kept && asking === p.slug && (
                <div className="confirm" role="alertdialog" aria-labelledby={`${id}-${p.id}-q`}>
                  <p id={`${id}-${p.id}-q`}>{t.mergeConfirm(p.slug, keep)}</p>
                  <button
                    type="button"
                    className="danger"
                    disabled={merge.isPending}
                    onClick={() => merge.mutate(p.slug)}
                  >
                    {t.mergeYes}
                  </button>{' '}
                  <button type="button" className="ghost" onClick={() => setAsking(null)}>
                    {t.cancel}
                  </button>
                </div>
              )}
            </div>
          );
        })}
      </fieldset>
      {merge.isError && <ErrorNote error={merge.error} />}
    </article>
  );
}
