import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { SummaryField, summaryShown } from '../../../components/summary-field.tsx';
import { Time } from '../../../components/time.tsx';
import { projectHref } from '../../../config/paths.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import { type DuplicateGroup, dismiss, mergeProject } from '../api/duplicates.ts';

type Member = DuplicateGroup['projects'][number];

/**
 * One group, its projects side by side with what tells them apart (descriptions, links, last
 * update, revisions, lock). The suggested project is preselected to keep; every button names
 * both projects; "not duplicates" records that they are distinct.
 */
export function Group({ group, onDone }: { group: DuplicateGroup; onDone: (note: string) => void }) {
  const { t, lang } = useI18n();
  const client = useQueryClient();
  const id = useId();
  const [keep, setKeep] = useState(group.suggestedInto);
  const [asking, setAsking] = useState<string | null>(null);
  // why (optional), recorded on the revisions of both projects
  const [summary, setSummary] = useState('');
  const nameOf = (p: Member) => localName(lang, p.name, p.nameEn).filter(Boolean).join(' ');
  const kept = group.projects.find((p) => p.slug === keep) ?? group.projects[0]!;
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['duplicates'] });
    void client.invalidateQueries({ queryKey: ['project'] });
  };
  const merge = useMutation({
    mutationFn: (from: string) => mergeProject(from, keep, summary),
    onSuccess: (reply) => {
      setAsking(null);
      onDone(t.mergedNote(reply.data.merged.slug, reply.data.project.slug));
      refresh();
    },
  });
  const distinct = useMutation({
    mutationFn: () => dismiss(group.projects.map((p) => p.slug)),
    onSuccess: () => {
      onDone(t.dismissedNote);
      refresh();
    },
  });
  const slugs = group.projects.map((p) => p.slug);
  return (
    <article className="card dup-group" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        <span className="badge">{t[`reason_${group.reason}`]}</span>{' '}
        <code className="dup-key">{group.key}</code>
      </h2>
      <fieldset className="dup-projects">
        <legend className="visually-hidden">{t.keep}</legend>
        {group.projects.map((p) => (
          <div key={p.id} className={`dup-project${p.slug === keep ? ' kept' : ''}`} data-slug={p.slug}>
            <h3>
              <Link href={projectHref(p.slug)}>{nameOf(p)}</Link>
            </h3>
            <p className="muted">
              <code>{p.slug}</code>
              {p.slug === group.suggestedInto && <span className="badge ok-badge">{t.suggested}</span>}
            </p>
            <p lang="zh-CN">{p.description}</p>
            {p.descriptionEn && <p lang="en">{p.descriptionEn}</p>}
            <ul className="dup-links">
              {p.links.map((l) => (
                <li key={l.id}>
                  <span className="badge">{t[l.type]}</span> <span className="url">{l.url}</span>
                </li>
              ))}
            </ul>
            <p className="muted">
              {t.updated} <Time iso={p.updatedAt} /> · {t.revisionsCount(p.revisions)} ·{' '}
              {p.locked ? t.lockedYes : t.lockedNo}
            </p>
            <label>
              <input
                type="radio"
                name={`${id}-keep`}
                checked={p.slug === keep}
                onChange={() => setKeep(p.slug)}
              />{' '}
              {p.slug === keep ? t.kept : t.keep} {p.slug}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="dup-actions">
        {group.projects
          .filter((p) => p.slug !== keep)
          .map((p) =>
            asking === p.slug ? (
              <div key={p.id} className="confirm" role="alertdialog" aria-labelledby={`${id}-${p.id}-q`}>
                <p id={`${id}-${p.id}-q`}>{t.mergeConfirm(p.slug, keep)}</p>
                <SummaryField value={summary} onChange={setSummary} error={merge.error} />
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
            ) : (
              <button key={p.id} type="button" onClick={() => setAsking(p.slug)}>
                {t.keepMerge(nameOf(kept), p.slug)}
              </button>
            ),
          )}
        <button
          type="button"
          className="ghost"
          disabled={distinct.isPending}
          onClick={() => distinct.mutate()}
        >
          {t.notDuplicates(slugs.slice(0, -1).join(', '), slugs.at(-1)!)}
        </button>
      </div>
      {merge.isError && <ErrorNote error={merge.error} shown={summaryShown} />}
      {distinct.isError && <ErrorNote error={distinct.error} />}
    </article>
  );
}
