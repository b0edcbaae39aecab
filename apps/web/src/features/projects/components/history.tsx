import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { LinkConflict } from '../../../components/link-conflict.tsx';
import { SummaryField, summaryShown } from '../../../components/summary-field.tsx';
import { Time } from '../../../components/time.tsx';
import { hasTakenLinks } from '../../../lib/api-details.ts';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { useCan } from '../../../lib/own-key.ts';
import { listRevisions, mergeProject, type RevisionSummary, revertProject } from '../api/revisions.ts';
import { Compare } from './compare-revisions.tsx';

/**
 * The History tab of a project (docs/curation.md#history-revert-locks-and-restore): the timeline of its
 * revisions (one whose write may have been wrong marked so), two of them side by side (Chinese and English
 * fields alike, differing rows marked), and a revert with a confirmation.
 */
export function History({ slug }: { slug: string }) {
  const { t } = useI18n();
  const id = useId();
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const [note, setNote] = useState<string | null>(null);
  const query = useInfiniteQuery({
    queryKey: ['revisions', slug],
    queryFn: ({ pageParam, signal }) => listRevisions(slug, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const revisions = query.data?.pages.flatMap((p) => p.revisions) ?? [];
  const latest = revisions[0]?.revision;
  const to = picked.to ?? latest;
  const from =
    picked.from ??
    (to !== undefined && to > 1 ? (revisions.find((r) => r.revision < to)?.revision ?? to) : to);
  return (
    <section className="history" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.historyTitle}</h2>
      <p className="muted">{t.historyHelp}</p>
      <p role="status" className="note">
        {note}
      </p>
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : query.isError ? (
        <ErrorNote error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <>
          <Timeline
            slug={slug}
            revisions={revisions}
            from={from}
            to={to}
            latest={latest}
            onPick={(side, n) => setPicked((p) => ({ ...p, from: from, to: to, [side]: n }))}
            onReverted={(n, made, skipped) => {
              setNote(`${t.revertedNote(n, made)}${skipped > 0 ? ` ${t.skippedNote(skipped)}` : ''}`);
              setPicked({});
            }}
          />
          {query.hasNextPage && (
            <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
              {t.olderRevisions}
            </button>
          )}
          {from !== undefined && to !== undefined && <Compare slug={slug} from={from} to={to} />}
        </>
      )}
    </section>
  );
}

function Timeline(props: {
  slug: string;
  revisions: RevisionSummary[];
  from: number | undefined;
  to: number | undefined;
  latest: number | undefined;
  onPick(side: 'from' | 'to', n: number): void;
  onReverted(n: number, made: number | null, skipped: number): void;
}) {
  const { t } = useI18n();
  // a key without curate: the page's note says so (project-page.tsx)
  const { can: canCurate } = useCan('curate');
  const id = useId();
  const client = useQueryClient();
  const [asking, setAsking] = useState<number | null>(null);
  // why (optional), recorded on the revert's revision (and the merge's, for "merge <owner> here")
  const [summary, setSummary] = useState('');
  const revert = useMutation({
    // "merge <owner> here" merges the owner of the links first, then reverts
    mutationFn: async (how: { n: number; links?: 'skip'; mergeFirst?: string }) => {
      if (how.mergeFirst) await mergeProject(how.mergeFirst, props.slug, summary);
      return revertProject(props.slug, how.n, how.links, summary);
    },
    onSuccess: (reply, { n }) => {
      setAsking(null);
      setSummary('');
      props.onReverted(n, reply.revision, reply.skipped.length);
      void client.invalidateQueries({ queryKey: ['revisions', props.slug] });
      void client.invalidateQueries({ queryKey: ['project', props.slug] });
    },
  });
  return (
    <div className="table-wrap">
      <table className="timeline">
        <caption className="visually-hidden">{t.historyTitle}</caption>
        <thead>
          <tr>
            <th scope="col">{t.compareFrom}</th>
            <th scope="col">{t.compareTo}</th>
            <th scope="col">{t.revision}</th>
            <th scope="col">{t.updated}</th>
            <th scope="col">{t.via}</th>
            <th scope="col">{t.source}</th>
            <th scope="col">
              <span className="visually-hidden">{t.revertYes}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.revisions.map((r) => (
            <tr key={r.revision} aria-selected={r.revision === props.from || r.revision === props.to}>
              <td>
                <input
                  type="radio"
                  name={`${id}-from`}
                  aria-label={`${t.compareFrom} ${t.revisionN(r.revision)}`}
                  checked={r.revision === props.from}
                  onChange={() => props.onPick('from', r.revision)}
                />
              </td>
              <td>
                <input
                  type="radio"
                  name={`${id}-to`}
                  aria-label={`${t.compareTo} ${t.revisionN(r.revision)}`}
                  checked={r.revision === props.to}
                  onChange={() => props.onPick('to', r.revision)}
                />
              </td>
              <th scope="row">
                {r.revision} <span className={`badge action-${r.action}`}>{t[`action_${r.action}`]}</span>
              </th>
              <td>
                <Time iso={r.at} />
              </td>
              <td>
                <code>{r.via}</code> · {r.actor ?? <span className="muted">{t.actorNone}</span>}
                {r.merged && <div className="merged-in">{t.mergedIn(r.merged.join(', '))}</div>}
                {/* an upsert that may be wrong (docs/curation.md#updates-that-may-be-wrong) */}
                {r.warnings && (
                  <div className="revision-warning">
                    <span className="badge warn-badge">{t.revisionWarning}</span> {t.revisionWarningWhy}
                  </div>
                )}
                {r.summary && (
                  <div className="revision-summary">
                    <span className="muted">{t.revisionSummary}</span> {r.summary}
                  </div>
                )}
              </td>
              <td>{r.source ?? <span className="muted">{t.none}</span>}</td>
              <td>
                {canCurate &&
                  r.revision !== props.latest &&
                  r.action !== 'deleted' &&
                  asking !== r.revision && (
                    <button type="button" className="ghost" onClick={() => setAsking(r.revision)}>
                      {t.revertTo(r.revision)}
                    </button>
                  )}
                {asking === r.revision && (
                  <KeyGate>
                    <div className="confirm" role="alertdialog" aria-labelledby={`${id}-${r.revision}-q`}>
                      <p id={`${id}-${r.revision}-q`}>{t.revertConfirm(r.revision)}</p>
                      <SummaryField value={summary} onChange={setSummary} error={revert.error} />
                      <button
                        type="button"
                        className="danger"
                        disabled={revert.isPending}
                        onClick={() => revert.mutate({ n: r.revision })}
                      >
                        {t.revertYes}
                      </button>{' '}
                      <button type="button" className="ghost" onClick={() => setAsking(null)}>
                        {t.cancel}
                      </button>
                      {revert.isError && (
                        <LinkConflict
                          error={revert.error}
                          busy={revert.isPending}
                          onSkip={() => revert.mutate({ n: r.revision, links: 'skip' })}
                          onMergeOwner={(owner) => revert.mutate({ n: r.revision, mergeFirst: owner })}
                        />
                      )}
                      {revert.isError && !hasTakenLinks(revert.error) && (
                        <ErrorNote error={revert.error} shown={summaryShown} />
                      )}
                    </div>
                  </KeyGate>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
