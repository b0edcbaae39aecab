import { useI18n } from '../../../lib/i18n/i18n.tsx';
import type { QueueTask } from '../api/tasks.ts';

export function StatusBadge({ status }: { status: QueueTask['status'] }) {
  const { t } = useI18n();
  return <span className={`badge status-${status}`}>{t[status]}</span>;
}
