import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { LinkConflict } from '../../../components/link-conflict.tsx';
import { SummaryField, summaryShown } from '../../../components/summary-field.tsx';
import { Time } from '../../../components/time.tsx';
import { projectHref } from '../../../config/paths.ts';
import { hasTakenLinks } from '../../../lib/api-details.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { type DeletedProject, listDeleted, mergeProject, restoreProject } from '../api/deleted.ts';

export default function DeletedPage() {
  return (
    <KeyGate scope="curate">
      <Deleted />
    </KeyGate>
  );
}

function Deleted() {
  const { t } = useI18n();
  const id = useId();
  const [restored, setRestored] = useState<string | null>(null);
  const query = useInfiniteQuery({
    queryKey: ['deleted'],
    queryFn: ({ pageParam, signal }) => listDeleted(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const projects = query.data?.pages.flatMap((p) => p.projects) ?? [];
  return (
    <section className="deleted-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{t.deletedTitle}</h1>
      <p className="muted">{t.deletedHelp}</p>
      <p role="status" className="note">
        {restored && (
          <>
            {t.restoredNote(restored)} <Link href={projectHref(restored)}>{restored}</Link>
          </>
        )}
      </p>
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : query.isError ? (
        <ErrorNote error={query.error} onRetry={() => query.refetch()} />
      ) : projects.length === 0 ? (
        <p>{t.noDeleted}</p>
      ) : (
        <ul className="deleted-list">
          {projects.map((p) => (
            <li key={p.id}>
              <Item project={p} onRestored={setRestored} />
            </li>
          ))}
        </ul>
      )}
      {query.hasNextPage && (
        <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {t.loadMore}
        </button>
      )}
    </section>
  );
}

function Item({ project, onRestored }: { project: DeletedProject; onRestored: (slug: string) => void }) {
  const { t, lang } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  // why (optional), recorded on the restore's revision (and the merge's)
  const [summary, setSummary] = useState('');
  const restore = useMutation({
    // "merge <owner> here": restored without the owner's links, then the owner merged into it
    mutationFn: async (how: { links?: 'skip'; mergeOwner?: string } = {}) => {
      const reply = await restoreProject(project.id, how.mergeOwner ? 'skip' : how.links, summary);
      if (how.mergeOwner) await mergeProject(how.mergeOwner, reply.data.slug, summary);
      return reply;
    },
    onSuccess: (reply) => {
      setAsking(false);
      onRestored(reply.data.slug);
      void client.invalidateQueries({ queryKey: ['deleted'] });
      void client.invalidateQueries({ queryKey: ['project', reply.data.slug] });
    },
  });
  const [name, other] = localName(lang, project.name, project.nameEn);
  return (
    <article className="card deleted-item" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        {name}
        {other && <span className="other-name">{other}</span>}
      </h2>
      <p className="muted">
        <code>{project.slug}</code> · {project.via === 'merge' ? t.viaMerge : t.viaDelete}{' '}
        <Time iso={project.deletedAt} />
        {project.actor && <> · {project.actor}</>}
      </p>
      {project.mergedInto ? (
        <p>
          {t.mergedAway(project.mergedInto.slug)}{' '}
          <Link href={projectHref(project.mergedInto.slug)}>{project.mergedInto.slug}</Link>
        </p>
      ) : !asking ? (
        <button type="button" onClick={() => setAsking(true)}>
          {t.restore(project.slug)}
        </button>
      ) : (
        <div className="confirm" role="alertdialog" aria-labelledby={`${id}-q`}>
          <p id={`${id}-q`}>{t.restoreConfirm(project.slug)}</p>
          <SummaryField value={summary} onChange={setSummary} error={restore.error} />
          <button
            type="button"
            className="danger"
            disabled={restore.isPending}
            onClick={() => restore.mutate({})}
          >
            {t.restoreYes}
          </button>{' '}
          <button type="button" className="ghost" onClick={() => setAsking(false)}>
            {t.cancel}
          </button>
        </div>
      )}
      {restore.isError && (
        <LinkConflict
          error={restore.error}
          busy={restore.isPending}
          onSkip={() => restore.mutate({ links: 'skip' })}
          onMergeOwner={(owner) => restore.mutate({ mergeOwner: owner })}
        />
      )}
      {restore.isError && !hasTakenLinks(restore.error) && (
        <ErrorNote error={restore.error} shown={summaryShown} />
      )}
    </article>
  );
}
