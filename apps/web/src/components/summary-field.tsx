import { useId } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { fieldMessages, pathOf } from '../lib/field-errors.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';

/** At most this many characters (docs/curation.md#edit-summaries). */
const SUMMARY_MAX = 500;

/**
 * The optional "why" of a curation write (edit, revert, restore, merge, lock), sent as
 * `X-Directory-Summary` and recorded on the revisions the write stores
 * (docs/curation.md#edit-summaries). A summary the API refused says why under the field, in the
 * page's language; `summaryShown` leaves that detail out of the error note below.
 */
export function SummaryField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange(next: string): void;
  /** The write's failure, if any: its summary detail is said here. */
  error?: unknown;
}) {
  const { t } = useI18n();
  const id = useId();
  const refused =
    error instanceof ApiError && error.status === 400
      ? fieldMessages(t, error.details).get('summary')
      : undefined;
  return (
    <div className="field summary-field">
      <label htmlFor={`${id}-summary`}>{t.summaryLabel}</label>
      <input
        id={`${id}-summary`}
        type="text"
        name="summary"
        value={value}
        maxLength={SUMMARY_MAX}
        autoComplete="off"
        aria-describedby={`${id}-help${refused ? ` ${id}-err` : ''}`}
        {...(refused !== undefined && { 'aria-invalid': true })}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-help`} className="muted hint">
        {t.summaryHelp}
      </p>
      {refused && (
        <p id={`${id}-err`} className="field-error">
          {refused}
        </p>
      )}
    </div>
  );
}

/** Whether an API detail is the summary's (said on the summary field, not in the error note). */
export const summaryShown = (detail: string) => pathOf(detail) === 'summary';
