import { httpUrlProblem, URL_TOO_BIG } from '@directory/core/url-rule';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { checkTaskDuplicates, createTasks, type TaskDuplicates } from '../api/add-tasks.ts';

/** Tasks one request may create (endpoint 4). */
const MAX_TASKS = 50;

type Pasted = { url: string; problem?: ReturnType<typeof httpUrlProblem> };

/** The pasted text as its lines (a URL never holds whitespace, but a line may hold junk): each once. */
function pastedLines(text: string): Pasted[] {
  const lines = [...new Set(text.split(/\r?\n/).map((line) => line.trim()))].filter(Boolean);
  return lines.map((url) => ({ url, problem: httpUrlProblem(url) }));
}

export function AddTasks() {
  const { t } = useI18n();
  const client = useQueryClient();
  const id = useId();
  const [text, setText] = useState('');
  // The lines as checked: invalid ones are shown and left out, valid ones go through endpoint 9.
  const [checked, setChecked] = useState<{ lines: Pasted[]; reply: TaskDuplicates | null } | null>(null);
  const lines = pastedLines(text);
  const check = useMutation({
    mutationFn: (urls: string[]) => checkTaskDuplicates(urls),
  });
  const results = new Map(checked?.reply?.results.map((r) => [r.url, r]));
  const toCreate = checked?.reply?.results.filter((r) => r.shouldCreate).map((r) => r.url) ?? [];
  const create = useMutation({
    mutationFn: () => createTasks({ tasks: toCreate.map((sourceUrl) => ({ sourceUrl })) }),
    onSuccess: () => {
      setChecked(null);
      setText('');
      void client.invalidateQueries({ queryKey: ['queue'] });
    },
  });
  const valid = lines.filter((l) => !l.problem).map((l) => l.url);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (lines.length === 0) return;
    const shown = lines.filter((l) => l.problem || valid.slice(0, MAX_TASKS).includes(l.url));
    if (valid.length === 0) return setChecked({ lines: shown, reply: null });
    check.mutate(valid.slice(0, MAX_TASKS), { onSuccess: (reply) => setChecked({ lines: shown, reply }) });
  };
  return (
    <section className="card add-tasks" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.addTasks}</h2>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-urls`}>{t.addHelp}</label>
        <textarea
          id={`${id}-urls`}
          rows={4}
          value={text}
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value);
            setChecked(null);
            create.reset();
          }}
        />
        <button type="submit" disabled={lines.length === 0 || check.isPending}>
          {t.check}
        </button>
      </form>
      {check.isError && <ErrorNote error={check.error} />}
      {checked && (
        <div className="checked">
          <ul className="check-results">
            {checked.lines.map(({ url, problem }) => {
              const r = results.get(url);
              if (problem)
                return (
                  <li key={url} data-invalid="true">
                    <span className="badge bad-badge">{t.invalidLine}</span>{' '}
                    <span className="url">{url}</span>{' '}
                    <span className="muted">{t.invalidWhy(problem === URL_TOO_BIG)}</span>
                  </li>
                );
              if (!r) return null;
              return (
                <li key={url} data-should-create={r.shouldCreate}>
                  <span className={`badge ${r.shouldCreate ? 'ok-badge' : 'muted-badge'}`}>
                    {r.shouldCreate ? t.willCreate : t.duplicate}
                  </span>{' '}
                  <span className="url">{url}</span> <span className="muted">{r.reason}</span>
                </li>
              );
            })}
          </ul>
          {valid.length > MAX_TASKS && <p className="muted">{t.firstOnly(MAX_TASKS)}</p>}
          <button
            type="button"
            onClick={() => create.mutate()}
            disabled={toCreate.length === 0 || create.isPending}
          >
            {t.createN(toCreate.length)}
          </button>
        </div>
      )}
      {create.isError && <ErrorNote error={create.error} />}
      {create.isSuccess && <p role="status">{t.added(create.data.created, create.data.skipped)}</p>}
    </section>
  );
}
