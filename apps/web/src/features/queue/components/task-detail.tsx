import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { ScopeNote } from '../../../components/scope-note.tsx';
import { Time } from '../../../components/time.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { useCan } from '../../../lib/own-key.ts';
import { getTask, retryTask } from '../api/tasks.ts';
import { StatusBadge } from './status-badge.tsx';

export function TaskDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useI18n();
  const { can: canWrite } = useCan('tasks:write');
  const client = useQueryClient();
  const headingId = useId();
  const query = useQuery({
    queryKey: ['queue', 'task', id],
    queryFn: ({ signal }) => getTask(id, signal),
  });
  const retry = useMutation({
    mutationFn: () => retryTask(id),
    onSuccess: () => client.invalidateQueries({ queryKey: ['queue'] }),
  });
  const task = query.data?.task;
  return (
    <section className="card task-detail" aria-labelledby={headingId}>
      <div className="results-head">
        <h2 id={headingId}>{t.details}</h2>
        <button type="button" className="ghost" onClick={onClose}>
          {t.close}
        </button>
      </div>
      {query.isError && <ErrorNote error={query.error} />}
      {task && (
        <>
          <p className="url-line">
            <a href={task.sourceUrl} rel="noopener noreferrer nofollow" target="_blank">
              {task.sourceUrl}
            </a>
          </p>
          <dl className="facts">
            <Fact label={t.taskStatus}>
              <StatusBadge status={task.status} />
            </Fact>
            <Fact label={t.taskType}>{task.sourceType}</Fact>
            <Fact label={t.retries}>{task.retryCount}</Fact>
            {task.attempt !== undefined && <Fact label={t.taskAttempts}>{task.attempt}</Fact>}
            {task.worker && <Fact label={t.worker}>{task.worker}</Fact>}
            {task.leaseExpiresAt && (
              <Fact label={t.leaseExpires}>
                <Time iso={task.leaseExpiresAt} />
              </Fact>
            )}
            {task.availableAt && (
              <Fact label={t.availableAt}>
                <Time iso={task.availableAt} />
              </Fact>
            )}
            <Fact label={t.taskCreated}>
              <Time iso={task.createdAt} />
            </Fact>
            {task.projectId && <Fact label={t.project}>{task.projectId}</Fact>}
          </dl>
          {task.errorMessage && (
            <p className="notice error">
              {t.errorMessage}: {task.errorMessage}
            </p>
          )}
          {task.status === 'FAILED' && !canWrite && <ScopeNote scope="tasks:write" />}
          {task.status === 'FAILED' && canWrite && (
            <p>
              <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>
                {t.retryTask}
              </button>
            </p>
          )}
          {retry.isSuccess && <p role="status">{t.retried}</p>}
          {retry.isError && <ErrorNote error={retry.error} />}
          {task.explorationSummary && (
            <>
              <h3>{t.explorationSummary}</h3>
              <p>{task.explorationSummary}</p>
            </>
          )}
          {task.explorationData !== null && task.explorationData !== undefined && (
            <>
              <h3>{t.explorationData}</h3>
              <pre className="json">{JSON.stringify(task.explorationData, null, 2)}</pre>
            </>
          )}
        </>
      )}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
