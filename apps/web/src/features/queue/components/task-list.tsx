import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { LoadMore } from '../../../components/load-more.tsx';
import { Time } from '../../../components/time.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { listTasks, type QueueTask, type QueueTaskList, TASK_STATUSES } from '../api/tasks.ts';
import { StatusBadge } from './status-badge.tsx';

const PAGE_SIZE = 20;

type PageParam = { cursor: string | null; offset: number };

export function TaskList({
  status,
  poll,
  selected,
  setParam,
}: {
  status: QueueTask['status'] | undefined;
  poll: number | false;
  selected: string | null;
  setParam: (name: string, value: string | undefined) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const query = useInfiniteQuery({
    queryKey: ['queue', 'tasks', status ?? 'ALL'],
    queryFn: ({ pageParam, signal }) =>
      listTasks(status, PAGE_SIZE, pageParam.cursor, pageParam.cursor ? undefined : pageParam.offset, signal),
    initialPageParam: { cursor: null, offset: 0 } as PageParam,
    // Cursor paging where the server offers it, offsets otherwise.
    getNextPageParam: (last: QueueTaskList, all): PageParam | null =>
      last.hasMore
        ? { cursor: last.nextCursor ?? null, offset: all.reduce((n, p) => n + p.tasks.length, 0) }
        : null,
    placeholderData: keepPreviousData,
    refetchInterval: poll,
  });
  const tasks = query.data?.pages.flatMap((p) => p.tasks) ?? [];
  const total = query.data?.pages[0]?.total;
  return (
    <section className="card task-list" aria-labelledby={`${id}-h`}>
      <div className="results-head">
        <h2 id={`${id}-h`}>
          {t.tasks}
          {total !== undefined && <span className="count">{total}</span>}
        </h2>
        <fieldset className="tabs">
          <legend className="visually-hidden">{t.taskStatus}</legend>
          {[undefined, ...TASK_STATUSES].map((s) => (
            <button
              key={s ?? 'ALL'}
              type="button"
              className="tab"
              aria-pressed={status === s}
              onClick={() => setParam('status', s)}
            >
              {s ? t[s] : t.all}
            </button>
          ))}
        </fieldset>
      </div>
      {query.isError && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
      {query.data && tasks.length === 0 && <p className="muted">{t.noTasks}</p>}
      {tasks.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t.taskUrl}</th>
                <th scope="col">{t.taskStatus}</th>
                <th scope="col" className="wide-only">
                  {t.taskAttempts}
                </th>
                <th scope="col" className="wide-only">
                  {t.taskCreated}
                </th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => (
                <tr key={task.id} data-task={task.id} aria-selected={selected === task.id}>
                  <td className="url-cell">
                    <button type="button" className="link-button" onClick={() => setParam('task', task.id)}>
                      {task.sourceUrl}
                    </button>
                  </td>
                  <td>
                    <StatusBadge status={task.status} />
                  </td>
                  <td className="wide-only">{task.attempt ?? task.retryCount}</td>
                  <td className="wide-only">
                    <Time iso={task.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore query={query} />
    </section>
  );
}
