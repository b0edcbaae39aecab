import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { SummaryField, summaryShown } from '../../../components/summary-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { mergeTag } from '../api/curate-tags.ts';
import { findTags, type TagsReply } from '../api/find-tags.ts';

type Tag = TagsReply['tags'][number];

/**
 * Merging a tag into another (docs/curation.md#tags): find the tag to keep, see the two side by
 * side with their project counts and aliases, say why (optional), then confirm.
 */
export function TagMerge(props: { tag: Tag; onDone(note: string): void; onCancel(): void }) {
  const { tag } = props;
  const { t, lang } = useI18n();
  const id = useId();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [into, setInto] = useState<Tag | null>(null);
  const [summary, setSummary] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 150);
    return () => clearTimeout(timer);
  }, [text]);
  const candidates = useQuery({
    queryKey: ['tags', 'merge-into', q],
    queryFn: ({ signal }) => findTags({ q: q || undefined, sort: 'count', limit: 8 }, null, signal),
    placeholderData: keepPreviousData,
  });
  const options = (candidates.data?.tags ?? []).filter((c) => c.slug !== tag.slug);
  const named = (x: Tag) => localName(lang, x.name, x.nameEn)[0];
  const merge = useMutation({
    mutationFn: (target: Tag) => mergeTag(tag.slug, target.slug, summary),
    onSuccess: (reply) => props.onDone(t.tagMergedNote(tag.slug, reply.tag.slug, reply.projectsChanged)),
  });
  return (
    <section className="tag-merge" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.mergeTitle(named(tag))}</h3>
      <label htmlFor={`${id}-q`}>{t.mergeFind}</label>
      <input
        id={`${id}-q`}
        type="search"
        value={text}
        autoComplete="off"
        onChange={(e) => setText(e.target.value)}
      />
      <fieldset className="tag-merge-options">
        <legend className="visually-hidden">{t.mergeFind}</legend>
        {options.map((c) => {
          const [name, other] = localName(lang, c.name, c.nameEn);
          return (
            <label key={c.id} data-tag={c.slug}>
              <input
                type="radio"
                name={`${id}-into`}
                checked={into?.slug === c.slug}
                onChange={() => setInto(c)}
              />{' '}
              {name}
              {other && <span className="other-name"> / {other}</span>}{' '}
              <span className="muted">
                · <code>{c.slug}</code> · {t.projectsCount(c.projectCount)}
              </span>
            </label>
          );
        })}
        {candidates.isSuccess && options.length === 0 && <p className="muted">{t.mergeNoMatch}</p>}
      </fieldset>
      {candidates.isError && <ErrorNote error={candidates.error} onRetry={() => candidates.refetch()} />}
      {into && (
        <div className="confirm tag-merge-confirm" role="alertdialog" aria-labelledby={`${id}-what`}>
          <div className="tag-compare">
            <TagSide tag={tag} title={t.mergeAway} side="from" />
            <span className="tag-compare-arrow" aria-hidden="true">
              →
            </span>
            <TagSide tag={into} title={t.mergeKept} side="into" />
          </div>
          <p id={`${id}-what`}>{t.mergeWhat(named(tag), named(into), tag.projectCount)}</p>
          <SummaryField value={summary} onChange={setSummary} error={merge.error} />
          <div className="row">
            <button
              type="button"
              className="danger"
              disabled={merge.isPending}
              onClick={() => merge.mutate(into)}
            >
              {t.mergeTagYes(tag.slug, into.slug)}
            </button>
          </div>
        </div>
      )}
      {merge.isError && (
        <ErrorNote
          error={merge.error}
          shown={summaryShown}
          message={
            merge.error instanceof ApiError && merge.error.status === 409 ? t.tagMergeConflict : undefined
          }
        />
      )}
      <div className="row">
        <button type="button" className="ghost" onClick={props.onCancel}>
          {t.cancel}
        </button>
      </div>
    </section>
  );
}

/** One side of the merge: the tag's names, address, project count and aliases. */
function TagSide({ tag, title, side }: { tag: Tag; title: string; side: 'from' | 'into' }) {
  const { t, lang } = useI18n();
  const [name, other] = localName(lang, tag.name, tag.nameEn);
  return (
    <div className={`tag-side tag-side-${side}`} data-side={side} data-tag={tag.slug}>
      <p className="tag-side-title">{title}</p>
      <p className="tag-name">{name}</p>
      {other && <p className="other-name">{other}</p>}
      <p>
        <code>{tag.slug}</code>
      </p>
      <p className="tag-side-count">{t.projectsCount(tag.projectCount)}</p>
      <p className="muted">{tag.aliases.length ? t.tagAliases(tag.aliases.join(', ')) : t.tagNoAliases}</p>
    </div>
  );
}
