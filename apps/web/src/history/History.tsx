import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, type Revision, type RevisionSummary } from '../api.ts';
import { ErrorNote, Time } from '../components.tsx';
import { type Messages, useI18n } from '../i18n.tsx';
import { KeyGate } from '../key.tsx';

type Body = Revision['project'];

/**
 * The History tab of a project (EXTENSIONS F): the timeline of its revisions, two of them side by
 * side (Chinese and English fields alike, differing rows marked), and a revert with a confirmation.
 */
export function History({ slug }: { slug: string }) {
  const { t } = useI18n();
  const id = useId();
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const [note, setNote] = useState<string | null>(null);
  const query = useInfiniteQuery({
    queryKey: ['revisions', slug],
    queryFn: ({ pageParam, signal }) => api.revisions(slug, pageParam, signal),
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
            onReverted={(n, made) => {
              setNote(t.revertedNote(n, made));
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
  onReverted(n: number, made: number | null): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [asking, setAsking] = useState<number | null>(null);
  const revert = useMutation({
    mutationFn: (n: number) => api.revert(props.slug, n),
    onSuccess: (reply, n) => {
      setAsking(null);
      props.onReverted(n, reply.revision);
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
              </td>
              <td>{r.source ?? <span className="muted">{t.none}</span>}</td>
              <td>
                {r.revision !== props.latest && r.action !== 'deleted' && asking !== r.revision && (
                  <button type="button" className="ghost" onClick={() => setAsking(r.revision)}>
                    {t.revertTo(r.revision)}
                  </button>
                )}
                {asking === r.revision && (
                  <KeyGate>
                    <div className="confirm" role="alertdialog" aria-labelledby={`${id}-${r.revision}-q`}>
                      <p id={`${id}-${r.revision}-q`}>{t.revertConfirm(r.revision)}</p>
                      <button
                        type="button"
                        className="danger"
                        disabled={revert.isPending}
                        onClick={() => revert.mutate(r.revision)}
                      >
                        {t.revertYes}
                      </button>{' '}
                      <button type="button" className="ghost" onClick={() => setAsking(null)}>
                        {t.cancel}
                      </button>
                      {revert.isError && <ErrorNote error={revert.error} />}
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

/** The rows of the comparison: a label and how to show the field of one side. */
function rows(t: Messages): { key: string; label: string; lang?: 'zh-CN' | 'en'; show(b: Body): string }[] {
  const text = (v: string | null | undefined) => v ?? '';
  return [
    { key: 'name', label: `${t.field_name} · ${t.chinese}`, lang: 'zh-CN', show: (b) => b.name },
    { key: 'nameEn', label: `${t.field_name} · ${t.english}`, lang: 'en', show: (b) => text(b.nameEn) },
    {
      key: 'description',
      label: `${t.field_description} · ${t.chinese}`,
      lang: 'zh-CN',
      show: (b) => b.description,
    },
    {
      key: 'descriptionEn',
      label: `${t.field_description} · ${t.english}`,
      lang: 'en',
      show: (b) => text(b.descriptionEn),
    },
    {
      key: 'content',
      label: `${t.field_content} · ${t.chinese}`,
      lang: 'zh-CN',
      show: (b) => text(b.content),
    },
    {
      key: 'contentEn',
      label: `${t.field_content} · ${t.english}`,
      lang: 'en',
      show: (b) => text(b.contentEn),
    },
    { key: 'status', label: t.field_status, show: (b) => t[b.status] },
    { key: 'source', label: t.field_source, show: (b) => text(b.source) },
    {
      key: 'tags',
      label: t.field_tags,
      show: (b) => b.tags.map((tag) => (tag.nameEn ? `${tag.name} / ${tag.nameEn}` : tag.name)).join('\n'),
    },
    {
      key: 'links',
      label: t.field_links,
      show: (b) => b.links.map((l) => `${t[l.type]}: ${l.url}${l.title ? ` (${l.title})` : ''}`).join('\n'),
    },
    { key: 'lock', label: t.field_lock, show: (b) => (b.lock ? b.lock.fields.join(', ') : '') },
  ];
}

/** Two revisions side by side: every field in both languages, the differing rows marked. */
function Compare({ slug, from, to }: { slug: string; from: number; to: number }) {
  const { t } = useI18n();
  const id = useId();
  const left = useQuery({
    queryKey: ['revision', slug, from],
    queryFn: ({ signal }) => api.revision(slug, from, signal),
  });
  const right = useQuery({
    queryKey: ['revision', slug, to],
    queryFn: ({ signal }) => api.revision(slug, to, signal),
  });
  if (left.isError || right.isError) return <ErrorNote error={left.error ?? right.error} />;
  if (!left.data || !right.data) return <p className="muted">{t.loading}</p>;
  const a = left.data.data.project;
  const b = right.data.data.project;
  const all = rows(t).map((row) => ({ ...row, from: row.show(a), to: row.show(b) }));
  const changed = all.filter((row) => row.from !== row.to).length;
  return (
    <section className="card compare" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.compareTitle(from, to)}</h3>
      {changed === 0 && <p className="muted">{t.noChanges}</p>}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t.field_name}</span>
              </th>
              <th scope="col">{t.revisionN(from)}</th>
              <th scope="col">{t.revisionN(to)}</th>
            </tr>
          </thead>
          <tbody>
            {all.map((row) => {
              const differs = row.from !== row.to;
              return (
                <tr key={row.key} className={differs ? 'changed' : undefined} data-field={row.key}>
                  <th scope="row">
                    {row.label}
                    {differs && <span className="badge changed-badge">{t.changed}</span>}
                  </th>
                  <td lang={row.lang} className={differs ? 'was' : undefined}>
                    {row.from || <span className="muted">{t.none}</span>}
                  </td>
                  <td lang={row.lang} className={differs ? 'now' : undefined}>
                    {row.to || <span className="muted">{t.none}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
