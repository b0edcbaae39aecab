import type { RouterOutputs } from '@directory/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { SummaryField, summaryShown } from '../../../components/summary-field.tsx';
import { projectHref, searchHref } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { localName, type Messages, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { projectNames, unmergeTag } from '../api/curate-tags.ts';
import type { TagsReply } from '../api/find-tags.ts';

type Tag = TagsReply['tags'][number];
type Unmerged = RouterOutputs['tags']['unmerge'];

/**
 * Undoing the merge of one alias of `tag` (docs/curation.md#undoing-a-merge): what it will do,
 * an optional summary, then confirm. `onDone` gets what happened, to show on the page.
 */
export function TagUnmerge(props: {
  tag: Tag;
  alias: string;
  onDone(note: ReactNode): void;
  onCancel(): void;
}) {
  const { tag, alias } = props;
  const { t, lang } = useI18n();
  const id = useId();
  const [summary, setSummary] = useState('');
  const unmerge = useMutation({
    mutationFn: () => unmergeTag(alias, summary),
    onSuccess: (reply) => props.onDone(<UnmergeResult reply={reply} />),
  });
  const [into] = localName(lang, tag.name, tag.nameEn);
  return (
    <section
      className="tag-unmerge confirm"
      role="alertdialog"
      aria-labelledby={`${id}-h`}
      aria-describedby={`${id}-what`}
    >
      <h3 id={`${id}-h`}>{t.unmergeTitle(alias)}</h3>
      <p id={`${id}-what`}>{t.unmergeWhat(alias, into)}</p>
      <SummaryField value={summary} onChange={setSummary} error={unmerge.error} />
      {unmerge.isError && (
        <ErrorNote error={unmerge.error} shown={summaryShown} message={refusal(t, unmerge.error)} />
      )}
      <div className="row">
        <button
          type="button"
          className="danger"
          disabled={unmerge.isPending}
          onClick={() => unmerge.mutate()}
        >
          {t.unmergeYes}
        </button>
        <button type="button" className="ghost" onClick={props.onCancel}>
          {t.cancel}
        </button>
      </div>
    </section>
  );
}

/** Why an unmerge was refused (409), in the page's language, by the API's detail (docs/curation.md#undoing-a-merge). */
function refusal(t: Messages, error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const detail = error.details[0] ?? '';
  if (/ is not merged into another tag$/.test(detail)) return t.unmergeNotMerged;
  if (/ was not recorded: it cannot be undone$/.test(detail)) return t.unmergeNotRecorded;
  if (/rename (it|that tag)? ?first/.test(detail)) return t.unmergeNameTaken;
  return t.unmergeConflict;
}

/** What an unmerge did: the tag restored (linked to its projects), and the projects left as they were. */
function UnmergeResult({ reply }: { reply: Unmerged }) {
  const { t, lang } = useI18n();
  const name = localName(lang, reply.tag.name, reply.tag.nameEn).filter(Boolean).join(' / ');
  return (
    <div className="unmerge-result" data-tag={reply.tag.slug}>
      <p>
        {t.unmergedNote(name, reply.projectsChanged)}{' '}
        <Link href={searchHref({ tag: [reply.tag.slug] })}>
          <code>{reply.tag.slug}</code>
        </Link>
      </p>
      {reply.skipped.length > 0 && (
        <>
          <p>{t.unmergeSkipped(reply.skipped.length)}</p>
          <ul className="unmerge-skipped">
            {reply.skipped.map((p) => (
              <SkippedProject key={p.slug} slug={p.slug} reason={p.reason} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** A project the unmerge left as it was: its name (once read), its address, and why. */
function SkippedProject({ slug, reason }: { slug: string; reason: string }) {
  const { t, lang } = useI18n();
  const deleted = reason === 'deleted';
  const names = useQuery({
    queryKey: ['tags', 'skipped-project', slug],
    queryFn: ({ signal }) => projectNames(slug, signal),
    enabled: !deleted,
    retry: false,
  });
  const name = names.data && localName(lang, names.data.name, names.data.nameEn)[0];
  return (
    <li data-project={slug}>
      {name && <>{name} · </>}
      {deleted ? <code>{slug}</code> : <Link href={projectHref(slug)}>{slug}</Link>}{' '}
      <span className="muted">{t.unmergeBecause(t.unmergeReason[reason] ?? reason)}</span>
    </li>
  );
}
