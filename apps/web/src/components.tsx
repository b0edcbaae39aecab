import { ApiError } from './api.ts';
import { useI18n } from './i18n.tsx';

export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useI18n();
  const unavailable = error instanceof ApiError && (error.status === 404 || error.status === 405);
  const detail = error instanceof ApiError ? error.message : t.error;
  return (
    <div className="notice error" role="alert">
      <p>{unavailable ? t.unavailable : `${t.error}: ${detail}`}</p>
      {onRetry && !unavailable && (
        <button type="button" onClick={onRetry}>
          {t.retry}
        </button>
      )}
    </div>
  );
}

export function Time({ iso }: { iso: string | null | undefined }) {
  const { formatDate, t } = useI18n();
  if (!iso) return <>{t.none}</>;
  return <time dateTime={iso}>{formatDate(iso)}</time>;
}
