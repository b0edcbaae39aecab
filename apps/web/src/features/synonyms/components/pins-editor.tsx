import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { projectHref } from '../../../config/paths.ts';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { firstPage, getPins, replacePins } from '../api/pins.ts';

/** A pin as the form holds it: slugs as typed, separated by commas. */
interface Draft {
  query: string;
  first: string;
  hide: string;
}

const slugs = (text: string) => [
  ...new Set(
    text
      .split(/[,，、\s]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/**
 * The curated results (docs/search.md#curated-results-pins) beside the synonyms: each pin's query,
 * the projects shown first and those hidden, with a preview of the query's first page as it will be.
 */
export function PinsEditor() {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const query = useQuery({ queryKey: ['pins'], queryFn: ({ signal }) => getPins(signal) });
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const [previewing, setPreviewing] = useState(0);
  const stored = (query.data?.pins ?? []).map((p) => ({
    query: p.query,
    first: p.first.join(', '),
    hide: p.hide.join(', '),
  }));
  const rows = drafts ?? stored;
  const save = useMutation({
    mutationFn: () =>
      replacePins(
        rows
          .filter((r) => r.query.trim() !== '')
          .map((r) => ({ query: r.query.trim(), first: slugs(r.first), hide: slugs(r.hide) })),
      ),
    onSuccess: (reply) => {
      client.setQueryData(['pins'], reply);
      setDrafts(null);
      void client.invalidateQueries({ queryKey: ['search'] });
      void client.invalidateQueries({ queryKey: ['pins-preview'] });
    },
  });
  const change = (i: number, field: keyof Draft, value: string) => {
    setDrafts(rows.map((r, j) => (j === i ? { ...r, [field]: value } : r)));
    save.reset();
  };
  const shown = rows[Math.min(previewing, rows.length - 1)];
  return (
    <section className="pins-editor" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.pinsTitle}</h2>
      <p className="muted">{t.pinsHelp}</p>
      {query.isError && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <ol className="pin-list">
            {rows.map((row, i) => (
              <li key={i} className="pin-row">
                <label>
                  {t.pinsQuery}
                  <input
                    type="text"
                    value={row.query}
                    maxLength={200}
                    onChange={(e) => change(i, 'query', e.target.value)}
                    onFocus={() => setPreviewing(i)}
                  />
                </label>
                <label>
                  {t.pinsFirst}
                  <input
                    type="text"
                    value={row.first}
                    spellCheck={false}
                    onChange={(e) => change(i, 'first', e.target.value)}
                    onFocus={() => setPreviewing(i)}
                  />
                </label>
                <label>
                  {t.pinsHide}
                  <input
                    type="text"
                    value={row.hide}
                    spellCheck={false}
                    onChange={(e) => change(i, 'hide', e.target.value)}
                    onFocus={() => setPreviewing(i)}
                  />
                </label>
                <button
                  type="button"
                  className="ghost"
                  onClick={() => {
                    setDrafts(rows.filter((_, j) => j !== i));
                    save.reset();
                  }}
                >
                  {t.pinsRemove(row.query)}
                </button>
              </li>
            ))}
          </ol>
          <p className="muted" role="status">
            {t.pinsCount(rows.filter((r) => r.query.trim() !== '').length)}
          </p>
          <div className="pin-actions">
            <button
              type="button"
              className="ghost"
              onClick={() => {
                setDrafts([...rows, { query: '', first: '', hide: '' }]);
                setPreviewing(rows.length);
              }}
            >
              {t.pinsAdd}
            </button>
            <button type="submit" disabled={save.isPending || drafts === null}>
              {save.isPending ? t.loading : t.pinsSave}
            </button>
          </div>
          {save.isError && <ErrorNote error={save.error} />}
          {save.isSuccess && (
            <p className="note" role="status">
              {t.pinsSaved}
            </p>
          )}
        </form>
      )}
      {shown && shown.query.trim() !== '' && <Preview draft={shown} />}
    </section>
  );
}

/**
 * The query's first page as it will be with this pin: today's page (GET /api/projects), with the
 * hidden ones taken out and the first ones put first, in order.
 */
function Preview({ draft }: { draft: Draft }) {
  const { t, lang } = useI18n();
  const q = draft.query.trim();
  const page = useQuery({
    queryKey: ['pins-preview', q],
    queryFn: ({ signal }) => firstPage(q, signal),
  });
  const first = slugs(draft.first);
  const hide = new Set(slugs(draft.hide));
  const found = new Map((page.data?.projects ?? []).map((p) => [p.slug, p]));
  const pinned = first.filter((s) => !hide.has(s));
  const rest = (page.data?.projects ?? []).filter((p) => !hide.has(p.slug) && !pinned.includes(p.slug));
  const nameOf = (p: { name: string; nameEn: string | null }) =>
    lang === 'en' && p.nameEn ? p.nameEn : p.name;
  return (
    <section className="pins-preview" aria-label={t.pinsPreview(q)}>
      <h3>{t.pinsPreview(q)}</h3>
      {page.isError && <ErrorNote error={page.error} onRetry={() => page.refetch()} />}
      {page.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : (
        <ol className="pins-preview-list">
          {pinned.map((slug) => {
            const p = found.get(slug);
            return (
              <li key={slug} data-slug={slug}>
                <Link href={projectHref(slug)}>{p ? nameOf(p) : slug}</Link>{' '}
                <span className="badge ok-badge">{t.pinsPinned}</span>
              </li>
            );
          })}
          {rest.slice(0, Math.max(0, 10 - pinned.length)).map((p) => (
            <li key={p.slug} data-slug={p.slug}>
              <Link href={projectHref(p.slug)}>{nameOf(p)}</Link>
            </li>
          ))}
        </ol>
      )}
      {!page.isPending && pinned.length + rest.length === 0 && <p className="muted">{t.pinsPreviewEmpty}</p>}
    </section>
  );
}
