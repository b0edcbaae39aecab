import { projectHref } from '../config/paths.ts';
import { ApiError } from '../lib/api-client.ts';
import { mergedInto, takenLinks } from '../lib/api-details.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';
import { Link } from '../lib/router.tsx';

/** A route this server does not have (an extension it lacks), not a missing record. */
const unavailableRoute = (error: ApiError) =>
  error.status === 405 || (error.status === 404 && /^No route for /.test(error.details[0] ?? ''));

/**
 * An error as the console says it: what happened and what to do next, in the console's
 * language (by the kind of failure: its status), then the API's details as sent (English, the
 * contract), with links to the projects they name.
 */
export function ErrorNote({
  error,
  onRetry,
  shown,
  message,
}: {
  error: unknown;
  onRetry?: () => void;
  /** What happened, as the page words it for this failure (else said by its kind). */
  message?: string | undefined;
  /** Whether a detail is already said on its field (a form's): left out of the list. */
  shown?: (detail: string) => boolean;
}) {
  const { t } = useI18n();
  if (!(error instanceof ApiError))
    return (
      <div className="notice error" role="alert">
        <p>{t.error}</p>
        {onRetry && (
          <button type="button" onClick={onRetry}>
            {t.retry}
          </button>
        )}
      </div>
    );
  if (unavailableRoute(error))
    return (
      <div className="notice error" role="alert">
        <p>{t.unavailable}</p>
      </div>
    );
  const kind = error.status === 0 ? 'network' : String(error.status);
  const owners = [...new Set(takenLinks(error.details).map((l) => l.slug))];
  const target = mergedInto(error.details);
  const details = shown ? error.details.filter((d) => !shown(d)) : error.details;
  return (
    <div className="notice error" role="alert" data-status={error.status}>
      <p>{message ?? t.errorKind[kind] ?? `${t.error} (${error.status})`}</p>
      {details.length > 0 && (
        <ul className="error-details" lang="en" aria-label={t.errorDetail}>
          {details.slice(0, 5).map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {[...owners, ...(target ? [target] : [])].map((slug) => (
        <p key={slug}>
          <Link href={projectHref(slug)}>→ {slug}</Link>
        </p>
      ))}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t.retry}
        </button>
      )}
    </div>
  );
}
