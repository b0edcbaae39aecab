import { useId } from 'react';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { type Draft, differing } from '../api/draft.ts';

const LABELS = {
  name: 'fieldName',
  nameEn: 'fieldNameEn',
  description: 'fieldDescription',
  descriptionEn: 'fieldDescriptionEn',
  content: 'fieldContent',
  contentEn: 'fieldContentEn',
  status: 'status',
  tags: 'tags',
  links: 'links',
} as const satisfies Record<keyof Draft, string>;

const shown = (value: Draft[keyof Draft]): string =>
  typeof value === 'string'
    ? value
    : value
        .map((v) => ('url' in v ? `${v.type} ${v.url}${v.title ? ` (${v.title})` : ''}` : v.name))
        .join('\n');

/**
 * A 412: who saved the project since this form was opened, and when; each field where their
 * values and yours differ, side by side; save yours over theirs, or take theirs.
 */
export function Conflict(props: {
  actor: string | null;
  at: string | null;
  theirs: Draft;
  yours: Draft;
  busy: boolean;
  onReapply(): void;
  onKeepTheirs(): void;
}) {
  const { t, formatDate } = useI18n();
  const id = useId();
  const fields = differing(props.theirs, props.yours);
  return (
    <section className="card conflict" role="alert" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.conflictTitle}</h2>
      <p>
        {t.conflictBy(props.actor ?? t.someone, props.at ? formatDate(props.at) : '—')} {t.conflictHelp}
      </p>
      <div className="table-wrap">
        <table className="conflict-table">
          <thead>
            <tr>
              <th scope="col">{t.conflictField}</th>
              <th scope="col">{t.conflictTheirs}</th>
              <th scope="col">{t.conflictYours}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f}>
                <th scope="row" data-field={f}>
                  {t[LABELS[f]]}
                </th>
                <td className="conflict-theirs">
                  <span className="cell-label">{t.conflictTheirs}</span>
                  {shown(props.theirs[f])}
                </td>
                <td className="conflict-yours">
                  <span className="cell-label">{t.conflictYours}</span>
                  {shown(props.yours[f])}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" disabled={props.busy} onClick={props.onReapply}>
        {t.reapply}
      </button>{' '}
      <button type="button" className="ghost" onClick={props.onKeepTheirs}>
        {t.keepTheirs}
      </button>
    </section>
  );
}
