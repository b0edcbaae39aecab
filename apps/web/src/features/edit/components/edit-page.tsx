import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { SummaryField } from '../../../components/summary-field.tsx';
import { paths, projectHref } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldMessages, pathOf } from '../../../lib/field-errors.ts';
import { localName, useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link, navigate } from '../../../lib/router.tsx';
import { type Draft, differing, draftOf, patchOf } from '../api/draft.ts';
import { deleteProject, getForEdit, latestRevision, type Project, saveEdit } from '../api/edit.ts';
import { type KeptDraft, keptDraft } from '../api/kept-draft.ts';
import { Conflict } from './conflict.tsx';
import { EditForm } from './edit-form.tsx';
import { KeptEdit } from './kept-edit.tsx';

export default function EditPage({ slug }: { slug: string }) {
  const { t } = useI18n();
  const query = useQuery({
    queryKey: ['edit', slug],
    queryFn: ({ signal }) => getForEdit(slug, signal),
    // the form keeps what was typed: never refreshed under it
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  if (query.isPending) return <p className="muted">{t.loading}</p>;
  if (query.isError) return <ErrorNote error={query.error} onRetry={() => query.refetch()} />;
  return (
    <KeyGate scope="curate">
      <Editor key={query.data.etag} project={query.data.project} etag={query.data.etag} />
    </KeyGate>
  );
}

interface Stale {
  theirs: Project;
  etag: string;
  actor: string | null;
  at: string | null;
}

function Editor(props: { project: Project; etag: string }) {
  const { t, lang } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [base, setBase] = useState(() => draftOf(props.project));
  const [etag, setEtag] = useState(props.etag);
  const [draft, setDraft] = useState<Draft>(base);
  const [note, setNote] = useState<string | null>(null);
  const [stale, setStale] = useState<Stale | null>(null);
  const [asking, setAsking] = useState(false);
  // why (optional): sent with each save, then cleared
  const [summary, setSummary] = useState('');
  const slug = props.project.slug;
  // an edit this tab kept when a save was refused, unless the project now holds it
  const [kept, setKept] = useState<KeptDraft | null>(() => {
    const found = keptDraft.read(slug);
    return found && differing(found.draft, draftOf(props.project)).length > 0 ? found : null;
  });
  // what is typed is kept in the tab until it is saved or given up (a refused key loses nothing)
  useEffect(() => {
    if (kept) return;
    if (differing(base, draft).length === 0) keptDraft.drop(slug);
    else keptDraft.write(slug, { base, draft, etag });
  }, [kept, base, draft, etag, slug]);
  const restore = (from: KeptDraft) => {
    setBase(from.base);
    setDraft(from.draft);
    setEtag(from.etag);
    setKept(null);
  };
  const refreshed = () => {
    void client.invalidateQueries({ queryKey: ['project', slug] });
    void client.invalidateQueries({ queryKey: ['revisions', slug] });
  };
  const save = useMutation({
    // a reapply sends the same changes again, with the ETag of the version saved since; a kept
    // edit is sent from what it was typed on
    mutationFn: (over?: Stale | KeptDraft) =>
      saveEdit(
        slug,
        over && 'draft' in over ? patchOf(over.base, over.draft) : patchOf(base, draft),
        over?.etag ?? etag,
        summary,
      ),
    onSuccess: (reply) => {
      const saved = draftOf(reply.data);
      setBase(saved);
      setDraft(saved);
      setEtag(reply.etag);
      setStale(null);
      setSummary('');
      setNote(t.savedNote(reply.revision));
      refreshed();
    },
    onError: async (error) => {
      if (!(error instanceof ApiError) || error.status !== 412) return;
      const [now, latest] = await Promise.all([getForEdit(slug), latestRevision(slug)]);
      setStale({ theirs: now.project, etag: now.etag, actor: latest?.actor ?? null, at: latest?.at ?? null });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteProject(slug),
    onSuccess: () => {
      refreshed();
      navigate(paths.search);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    save.mutate(undefined);
  };
  const [name] = localName(lang, props.project.name, props.project.nameEn);
  // a refused field says why on itself, in the page's language
  const fieldErrors =
    save.error instanceof ApiError && save.error.status === 400
      ? fieldMessages(t, save.error.details)
      : new Map<string, string>();
  return (
    <article className="edit-page" aria-labelledby={`${id}-h`}>
      <p>
        <Link href={projectHref(slug)}>← {name}</Link>
      </p>
      <h1 id={`${id}-h`}>{t.editTitle(name)}</h1>
      <p className="muted">{t.editHelp}</p>
      {kept && (
        <KeptEdit
          kept={kept}
          busy={save.isPending}
          onSave={() => {
            restore(kept);
            setNote(null);
            save.mutate(kept);
          }}
          onRestore={() => restore(kept)}
          onDiscard={() => {
            keptDraft.drop(slug);
            setKept(null);
          }}
        />
      )}
      <form onSubmit={submit}>
        <EditForm
          draft={draft}
          onChange={setDraft}
          locked={props.project.lock?.fields ?? []}
          errors={fieldErrors}
        />
        <SummaryField value={summary} onChange={setSummary} error={save.error} />
        <p role="status" className="note">
          {note && (
            <>
              {note} <Link href={projectHref(slug, { tab: 'history' })}>{t.tabHistory}</Link>
            </>
          )}
        </p>
        {stale ? (
          <Conflict
            actor={stale.actor}
            at={stale.at}
            theirs={draftOf(stale.theirs)}
            yours={draft}
            busy={save.isPending}
            onReapply={() => save.mutate(stale)}
            onKeepTheirs={() => {
              const theirs = draftOf(stale.theirs);
              setBase(theirs);
              setDraft(theirs);
              setEtag(stale.etag);
              setStale(null);
            }}
          />
        ) : (
          save.isError && <ErrorNote error={save.error} shown={(d) => fieldErrors.has(pathOf(d) ?? '')} />
        )}
        <div className="form-actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? t.saving : t.save}
          </button>
          {!asking ? (
            <button type="button" className="danger ghost" onClick={() => setAsking(true)}>
              {t.deleteProject}
            </button>
          ) : (
            <div className="confirm" role="alertdialog" aria-labelledby={`${id}-q`}>
              <p id={`${id}-q`}>{t.deleteConfirm(slug)}</p>
              <button
                type="button"
                className="danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate()}
              >
                {t.deleteYes}
              </button>{' '}
              <button type="button" className="ghost" onClick={() => setAsking(false)}>
                {t.cancel}
              </button>
              {remove.isError && <ErrorNote error={remove.error} />}
            </div>
          )}
        </div>
      </form>
    </article>
  );
}
