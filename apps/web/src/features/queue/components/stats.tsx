import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { getStats, TASK_STATUSES } from '../api/tasks.ts';

export function Stats({ poll }: { poll: number | false }) {
  const { t, lang } = useI18n();
  const id = useId();
  const query = useQuery({
    queryKey: ['queue', 'stats'],
    queryFn: ({ signal }) => getStats(signal),
    refetchInterval: poll,
  });
  if (query.isError) return <ErrorNote error={query.error} onRetry={() => query.refetch()} />;
  const stats = query.data;
  const age = stats?.oldestClaimableAgeSeconds;
  const figures: [string, string, string | number | undefined][] = [
    ...TASK_STATUSES.map((s): [string, string, number | undefined] => [s, t[s], stats?.counts[s]]),
    ['claimable', t.claimable, stats?.claimable],
    ['delayed', t.delayed, stats?.delayed],
    ['leased', t.leased, stats?.leased],
    [
      'oldestClaimableAgeSeconds',
      t.oldestClaimable,
      // 0 when nothing is claimable: shown as none rather than as "0 s".
      stats ? (!stats.claimable || age === null || age === undefined ? t.none : t.seconds(age)) : undefined,
    ],
    ['reapedTotal', t.reaped, stats?.reapedTotal],
  ];
  return (
    <section aria-labelledby={`${id}-h`} className="stats-section">
      <h2 id={`${id}-h`} className="visually-hidden">
        {t.countsByStatus}
      </h2>
      <dl className="stats" lang={lang === 'zh' ? 'zh-CN' : 'en'}>
        {figures.map(([key, label, value]) => (
          <div key={key} className={`stat stat-${key}${value === 0 ? ' zero' : ''}`} data-stat={key}>
            <dt>{label}</dt>
            <dd>{value ?? '…'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
