import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { count, MAX_INT, text } from '../schemas/common.ts';
import { queryInt } from '../schemas/query.ts';
import { Task, TaskStatus } from '../schemas/task.ts';

export const findTasksMeta: Meta = {
  scope: 'tasks:read',
  openapi: {
    method: 'GET',
    path: '/api/discovery/tasks',
    protect: true,
    tags: ['tasks'],
    summary: 'List discovery tasks in queue order (oldest first)',
    description:
      'A page of tasks in queue order (createdAt, then id), by `offset` or by `cursor` (the `nextCursor` ' +
      'of the previous page, with the same `status`): cursor pages never skip or repeat a task while ' +
      'tasks are added. `total` is the exact number of tasks matching `status`, kept by counters so ' +
      'that it costs the same at any table size. `nextCursor` is null on the last page.',
  },
  examples: {
    request: { status: 'PENDING', limit: 1 },
    response: {
      success: true,
      tasks: [
        {
          id: 'cm3x1q0a80000qz3k9v1f2b7c',
          sourceUrl: 'https://zh.wikipedia.org/wiki/通义千问',
          sourceType: 'wiki',
          status: 'PENDING',
          createdAt: '2026-11-23T08:00:00.000Z',
          startedAt: null,
          completedAt: null,
          projectId: null,
          explorationData: null,
          explorationSummary: null,
          errorMessage: null,
          retryCount: 0,
          lastRetryAt: null,
          attempt: 0,
          leaseExpiresAt: null,
          worker: null,
          availableAt: null,
        },
      ],
      total: 120,
      hasMore: true,
      nextCursor:
        'eyJzIjoiUEVORElORyIsInQiOiIyMDI2LTExLTIzVDA4OjAwOjAwLjAwMDAwMCswMDowMCIsImkiOiJjbTN4MXEwYTgwMDAwcXozazl2MWYyYjdjIn0',
    },
  },
};

export const FindTasksInput = z.object({
  status: TaskStatus.optional(),
  limit: queryInt({ min: 1, max: 100, fallback: 10 }),
  offset: queryInt({ min: 0, max: MAX_INT, fallback: 0 }),
  cursor: text({ min: 1, max: 1000 }).optional(),
});

export const FindTasksOutput = z.object({
  success: z.literal(true),
  tasks: z.array(Task),
  total: count(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
