import { httpUrlProblem, URL_TOO_BIG } from '@directory/core/url-rule';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, type QueueTask, type QueueTaskList, TASK_STATUSES, type TaskDuplicates } from '../api.ts';
import { ErrorNote, Time } from '../components.tsx';
import { useChangeFeed } from '../feed.ts';
import { useI18n } from '../i18n.tsx';
import { KeyGate } from '../key.tsx';
import { navigate, useLocation } from '../router.tsx';

const PAGE_SIZE = 20;

export default function QueuePage() {
  return (
    <KeyGate>
      <Queue />
    </KeyGate>
  );
}

function readStatus(search: URLSearchParams) {
  const status = search.get('status');
  return TASK_STATUSES.find((s) => s === status);
}

function Queue() {
  const { t } = useI18n();
  const client = useQueryClient();
  const { search } = useLocation();
  const status = readStatus(search);
  const selected = search.get('task');
  const id = useId();

  // Live: any task change refreshes what this page shows; without the feed, polling.
  const feed = useChangeFeed(true, (changes, initial) => {
    if (initial || changes.some((c) => c.type.startsWith('task.')))
      void client.invalidateQueries({ queryKey: ['queue'] });
  });
  const poll = feed === 'unavailable' ? 5000 : false;

  const setParam = (name: string, value: string | undefined) => {
    const params = new URLSearchParams(window.location.search);
    if (value) params.set(name, value);
    else params.delete(name);
    const s = params.toString();
    navigate(s ? `/queue?${s}` : '/queue', { replace: name === 'task' });
  };

  return (
    <div className="queue-page">
      <div className="results-head">
        <h1 id={`${id}-h`}>{t.queueTitle}</h1>
        <span className="live" data-state={feed} role="status">
          {feed === 'live' ? t.live : feed === 'unavailable' ? t.liveOff : t.loading}
        </span>
      </div>
      <Stats poll={poll} />
      <div className="queue-layout">
        <TaskList status={status} poll={poll} selected={selected} setParam={setParam} />
        {selected && <TaskDetail id={selected} onClose={() => setParam('task', undefined)} />}
      </div>
      <AddTasks />
    </div>
  );
}

function Stats({ poll }: { poll: number | false }) {
  const { t, lang } = useI18n();
  const id = useId();
  const query = useQuery({
    queryKey: ['queue', 'stats'],
    queryFn: ({ signal }) => api.stats(signal),
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

type PageParam = { cursor: string | null; offset: number };

function TaskList({
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
      api.tasks(status, PAGE_SIZE, pageParam.cursor, pageParam.cursor ? undefined : pageParam.offset, signal),
    initialPageParam: { cursor: null, offset: 0 } as PageParam,
    // Cursor paging where the server offers it (EXTENSIONS A), offsets otherwise.
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
      {query.hasNextPage && (
        <div className="paging">
          <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? t.loading : t.loadMore}
          </button>
        </div>
      )}
    </section>
  );
}

function StatusBadge({ status }: { status: QueueTask['status'] }) {
  const { t } = useI18n();
  return <span className={`badge status-${status}`}>{t[status]}</span>;
}

function TaskDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const headingId = useId();
  const query = useQuery({
    queryKey: ['queue', 'task', id],
    queryFn: ({ signal }) => api.task(id, signal),
  });
  const retry = useMutation({
    mutationFn: () => api.retry(id),
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
          {task.status === 'FAILED' && (
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

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Tasks one request may create (endpoint 4). */
const MAX_TASKS = 50;

type Pasted = { url: string; problem?: ReturnType<typeof httpUrlProblem> };

/** The pasted text as its lines (a URL never holds whitespace, but a line may hold junk): each once. */
function pastedLines(text: string): Pasted[] {
  const lines = [...new Set(text.split(/\r?\n/).map((line) => line.trim()))].filter(Boolean);
  return lines.map((url) => ({ url, problem: httpUrlProblem(url) }));
}

function AddTasks() {
  const { t } = useI18n();
  const client = useQueryClient();
  const id = useId();
  const [text, setText] = useState('');
  // The lines as checked: invalid ones are shown and left out, valid ones go through endpoint 9.
  const [checked, setChecked] = useState<{ lines: Pasted[]; reply: TaskDuplicates | null } | null>(null);
  const lines = pastedLines(text);
  const check = useMutation({
    mutationFn: (urls: string[]) => api.checkTaskDuplicates(urls),
  });
  const results = new Map(checked?.reply?.results.map((r) => [r.url, r]));
  const toCreate = checked?.reply?.results.filter((r) => r.shouldCreate).map((r) => r.url) ?? [];
  const create = useMutation({
    mutationFn: () => api.createTasks({ tasks: toCreate.map((sourceUrl) => ({ sourceUrl })) }),
    onSuccess: () => {
      setChecked(null);
      setText('');
      void client.invalidateQueries({ queryKey: ['queue'] });
    },
  });
  const valid = lines.filter((l) => !l.problem).map((l) => l.url);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (lines.length === 0) return;
    const shown = lines.filter((l) => l.problem || valid.slice(0, MAX_TASKS).includes(l.url));
    if (valid.length === 0) return setChecked({ lines: shown, reply: null });
    check.mutate(valid.slice(0, MAX_TASKS), { onSuccess: (reply) => setChecked({ lines: shown, reply }) });
  };
  return (
    <section className="card add-tasks" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.addTasks}</h2>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-urls`}>{t.addHelp}</label>
        <textarea
          id={`${id}-urls`}
          rows={4}
          value={text}
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value);
            setChecked(null);
            create.reset();
          }}
        />
        <button type="submit" disabled={lines.length === 0 || check.isPending}>
          {t.check}
        </button>
      </form>
      {check.isError && <ErrorNote error={check.error} />}
      {checked && (
        <div className="checked">
          <ul className="check-results">
            {checked.lines.map(({ url, problem }) => {
              const r = results.get(url);
              if (problem)
                return (
                  <li key={url} data-invalid="true">
                    <span className="badge bad-badge">{t.invalidLine}</span>{' '}
                    <span className="url">{url}</span>{' '}
                    <span className="muted">{t.invalidWhy(problem === URL_TOO_BIG)}</span>
                  </li>
                );
              if (!r) return null;
              return (
                <li key={url} data-should-create={r.shouldCreate}>
                  <span className={`badge ${r.shouldCreate ? 'ok-badge' : 'muted-badge'}`}>
                    {r.shouldCreate ? t.willCreate : t.duplicate}
                  </span>{' '}
                  <span className="url">{url}</span> <span className="muted">{r.reason}</span>
                </li>
              );
            })}
          </ul>
          {valid.length > MAX_TASKS && <p className="muted">{t.firstOnly(MAX_TASKS)}</p>}
          <button
            type="button"
            onClick={() => create.mutate()}
            disabled={toCreate.length === 0 || create.isPending}
          >
            {t.createN(toCreate.length)}
          </button>
        </div>
      )}
      {create.isError && <ErrorNote error={create.error} />}
      {create.isSuccess && <p role="status">{t.added(create.data.created, create.data.skipped)}</p>}
    </section>
  );
}
