import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { SummaryField, summaryShown } from '../../../components/summary-field.tsx';
import { Time } from '../../../components/time.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { useCan } from '../../../lib/own-key.ts';
import type { Project } from '../api/get-project.ts';
import { LOCK_FIELDS, type LockField, lockProject, unlockProject } from '../api/lock.ts';

/** The project's lock: what it keeps from imports and crawlers, and a form to change it. */
export function LockControl({ project }: { project: Project }) {
  const { t } = useI18n();
  const id = useId();
  // a key without curate: the page's note says so (project-page.tsx)
  const { can } = useCan('curate');
  const client = useQueryClient();
  const lock = project.lock ?? null;
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState<LockField[]>(lock?.fields ?? []);
  const [reason, setReason] = useState(lock?.reason ?? '');
  const [note, setNote] = useState<string | null>(null);
  // why (optional), recorded on the lock's revision
  const [summary, setSummary] = useState('');
  const done = (message: string) => {
    setOpen(false);
    setNote(message);
    void client.invalidateQueries({ queryKey: ['project', project.slug] });
    void client.invalidateQueries({ queryKey: ['revisions', project.slug] });
  };
  const save = useMutation({
    mutationFn: () => lockProject(project.slug, fields, reason, summary),
    onSuccess: () => done(t.lockSaved),
  });
  const unlock = useMutation({
    mutationFn: () => unlockProject(project.slug, summary),
    onSuccess: () => done(t.unlocked),
  });
  const label = (f: LockField) => t[`lockField_${f}`];
  return (
    <section className="lock" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="lock-title">
        {t.lockTitle}
      </h2>
      <p data-lock={lock ? lock.fields.join(',') : ''}>
        {lock ? t.lockedFields(lock.fields.map(label).join(', ')) : t.notLocked}
        {lock?.reason && <span className="muted"> — {lock.reason}</span>}
        {lock && (
          <span className="muted">
            {' '}
            (<Time iso={lock.at} />)
          </span>
        )}
      </p>
      <p role="status" className="note">
        {note}
      </p>
      {!open ? (
        can && (
          <button
            type="button"
            className="ghost"
            onClick={() => {
              setFields(lock?.fields ?? []);
              setReason(lock?.reason ?? '');
              setSummary('');
              setNote(null);
              setOpen(true);
            }}
          >
            {t.lockEdit}
          </button>
        )
      ) : (
        <KeyGate>
          <form
            className="lock-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (fields.length) save.mutate();
            }}
          >
            <fieldset>
              <legend>{t.lockHelp}</legend>
              <label>
                <input
                  type="checkbox"
                  checked={fields.length === LOCK_FIELDS.length}
                  onChange={(e) => setFields(e.target.checked ? [...LOCK_FIELDS] : [])}
                />{' '}
                {t.lockAll}
              </label>
              {LOCK_FIELDS.map((f) => (
                <label key={f}>
                  <input
                    type="checkbox"
                    name="field"
                    value={f}
                    checked={fields.includes(f)}
                    onChange={(e) =>
                      setFields((now) =>
                        e.target.checked
                          ? LOCK_FIELDS.filter((x) => x === f || now.includes(x))
                          : now.filter((x) => x !== f),
                      )
                    }
                  />{' '}
                  {label(f)}
                </label>
              ))}
            </fieldset>
            <label htmlFor={`${id}-reason`}>{t.lockReason}</label>
            <input
              id={`${id}-reason`}
              value={reason}
              maxLength={500}
              onChange={(e) => setReason(e.target.value)}
            />
            <SummaryField value={summary} onChange={setSummary} error={save.error ?? unlock.error} />
            <div className="row">
              <button type="submit" disabled={fields.length === 0 || save.isPending}>
                {t.lockSave}
              </button>
              {lock && (
                <button
                  type="button"
                  className="danger"
                  disabled={unlock.isPending}
                  onClick={() => unlock.mutate()}
                >
                  {t.unlock}
                </button>
              )}
              <button type="button" className="ghost" onClick={() => setOpen(false)}>
                {t.cancel}
              </button>
            </div>
            {(save.isError || unlock.isError) && (
              <ErrorNote error={save.error ?? unlock.error} shown={summaryShown} />
            )}
          </form>
        </KeyGate>
      )}
    </section>
  );
}
