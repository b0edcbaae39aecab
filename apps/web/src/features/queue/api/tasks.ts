import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// The queue (docs/workers.md#running-workers): tasks.stats, lease fields on tasks, cursor paging of
// tasks.list.

export type QueueTask = RouterOutputs['tasks']['get']['task'];
export type QueueTaskList = RouterOutputs['tasks']['list'];
type TaskStatus = QueueTask['status'];

export const TASK_STATUSES: readonly TaskStatus[] = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'];

export const getStats = (signal?: AbortSignal) =>
  request((client) => client.tasks.stats(), { key: true, signal });

export const listTasks = (
  status: TaskStatus | undefined,
  limit: number,
  cursor: string | null,
  offset: number | undefined,
  signal?: AbortSignal,
) =>
  request(
    (client) =>
      client.tasks.list({
        limit,
        ...(status && { status }),
        ...(cursor && { cursor }),
        ...(offset && { offset }),
      }),
    { key: true, signal },
  );

export const getTask = (id: string, signal?: AbortSignal) =>
  request((client) => client.tasks.get({ id }), { key: true, signal });

export const retryTask = (id: string) =>
  request((client) => client.tasks.updateStatus({ id, status: 'PENDING' }), { key: true });
