import { projectHref } from '../config/paths.ts';
import { ApiError } from '../lib/api-client.ts';
import { takenLinks } from '../lib/api-details.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';
import { Link } from '../lib/router.tsx';

/**
 * A revert or restore refused because some of its links belong to other projects now: each
 * link with a link to its owner, and the two ways on — without these links (`links: "skip"`),
 * or merge an owner into this project first. Null for any other error.
 */
export function LinkConflict(props: {
  error: unknown;
  busy: boolean;
  onSkip(): void;
  onMergeOwner(owner: string): void;
}) {
  const { t } = useI18n();
  if (!(props.error instanceof ApiError) || props.error.status !== 409) return null;
  const taken = takenLinks(props.error.details);
  if (taken.length === 0) return null;
  const owners = [...new Set(taken.map((l) => l.slug))];
  return (
    <div className="notice link-conflict" role="alert">
      <p>{t.linkConflictTitle}</p>
      <ul>
        {taken.map((l) => (
          <li key={l.url}>
            <span className="url">{t.linkConflictItem(l.url)}</span>{' '}
            <Link href={projectHref(l.slug)}>{l.slug}</Link>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" disabled={props.busy} onClick={props.onSkip}>
          {t.withoutLinks}
        </button>
        {owners.map((owner) => (
          <button
            key={owner}
            type="button"
            className="ghost"
            disabled={props.busy}
            onClick={() => props.onMergeOwner(owner)}
          >
            {t.mergeOwnerHere(owner)}
          </button>
        ))}
      </div>
    </div>
  );
}
