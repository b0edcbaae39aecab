import { useI18n } from '../../../lib/i18n/i18n.tsx';

/**
 * A list the edit form changes: each row's own inputs (`render`), and buttons to move it up or
 * down and to remove it, named after the row; an add button below.
 */
export function ListEditor<T>(props: {
  legend: string;
  locked: boolean;
  items: T[];
  onChange(items: T[]): void;
  blank(): T;
  addLabel: string;
  label(item: T, index: number): string;
  render(item: T, set: (next: T) => void, index: number): React.ReactNode;
  max: number;
}) {
  const { t } = useI18n();
  const { items, onChange } = props;
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    onChange(next);
  };
  return (
    <fieldset className="list-editor">
      <legend>
        {props.legend} {props.locked && <LockBadge />}
      </legend>
      <ol>
        {items.map((item, i) => {
          const name = props.label(item, i);
          return (
            <li key={i} className="list-row">
              <div className="list-fields">
                {props.render(item, (next) => onChange(items.map((x, j) => (j === i ? next : x))), i)}
              </div>
              <div className="list-actions">
                <button type="button" className="ghost" disabled={i === 0} onClick={() => move(i, i - 1)}>
                  <span aria-hidden="true">↑</span>
                  <span className="visually-hidden">{t.moveUp(name)}</span>
                </button>
                <button
                  type="button"
                  className="ghost"
                  disabled={i === items.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  <span aria-hidden="true">↓</span>
                  <span className="visually-hidden">{t.moveDown(name)}</span>
                </button>
                <button
                  type="button"
                  className="ghost"
                  disabled={items.length <= 1}
                  onClick={() => onChange(items.filter((_, j) => j !== i))}
                >
                  <span aria-hidden="true">✕</span>
                  <span className="visually-hidden">{t.remove(name)}</span>
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        disabled={items.length >= props.max}
        onClick={() => onChange([...items, props.blank()])}
      >
        {props.addLabel}
      </button>
    </fieldset>
  );
}

/**
 * "Locked": kept from imports and crawlers
 * (docs/curation.md#locks-put-apiprojectssluglock-fields-reason-delete-apiprojectssluglock--key), yet
 * editable here.
 */
export function LockBadge() {
  const { t } = useI18n();
  return (
    <span className="badge lock-badge" title={t.lockedBadgeHelp}>
      🔒 {t.lockedBadge}
    </span>
  );
}
