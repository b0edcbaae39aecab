import { useI18n } from '../lib/i18n/i18n.tsx';

export function Time({ iso }: { iso: string | null | undefined }) {
  const { formatDate, t } = useI18n();
  if (!iso) return <>{t.none}</>;
  return <time dateTime={iso}>{formatDate(iso)}</time>;
}
