import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { KeyGate } from '../../../components/key-gate.tsx';
import { ScopeNote } from '../../../components/scope-note.tsx';
import { queueHref } from '../../../config/paths.ts';
import { useChangeFeed } from '../../../lib/change-feed.ts';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { useCan } from '../../../lib/own-key.ts';
import { navigate, useLocation } from '../../../lib/router.tsx';
import { TASK_STATUSES } from '../api/tasks.ts';
import { AddTasks } from './add-tasks.tsx';
import { Stats } from './stats.tsx';
import { TaskDetail } from './task-detail.tsx';
import { TaskList } from './task-list.tsx';

export default function QueuePage() {
  return (
    <KeyGate scope="tasks:read">
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
  const { can: canWrite } = useCan('tasks:write');

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
    navigate(queueHref(params), { replace: name === 'task' });
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
      {canWrite ? <AddTasks /> : <ScopeNote scope="tasks:write" />}
    </div>
  );
}
