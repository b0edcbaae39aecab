import { useId } from 'react';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import type { KeptDraft } from '../api/kept-draft.ts';

/**
 * An edit this tab kept when its save was refused (api/kept-draft.ts), offered back when the
 * form opens again: save it as it was typed, put it into the form, or discard it.
 */
export function KeptEdit(props: {
  kept: KeptDraft;
  busy: boolean;
  onSave(): void;
  onRestore(): void;
  onDiscard(): void;
}) {
  const { t, formatDate } = useI18n();
  const id = useId();
  return (
    <section className="card kept-edit" role="alert" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.keptTitle}</h2>
      <p>{t.keptHelp(formatDate(props.kept.at))}</p>
      <div className="form-actions">
        <button type="button" disabled={props.busy} onClick={props.onSave}>
          {t.keptSave}
        </button>
        <button type="button" className="ghost" onClick={props.onRestore}>
          {t.keptRestore}
        </button>
        <button type="button" className="ghost danger" onClick={props.onDiscard}>
          {t.keptDiscard}
        </button>
      </div>
    </section>
  );
}
