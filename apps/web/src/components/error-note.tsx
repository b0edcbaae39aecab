import { ApiError } from '../lib/api-client.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';

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
