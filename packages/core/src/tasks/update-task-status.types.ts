import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { jsonObject, text } from '../schemas/common.ts';
import { Task, TaskStatus } from '../schemas/task.ts';

export const updateTaskStatusMeta: Meta = {
  scope: 'tasks:write',
  openapi: {
    method: 'PATCH',
    path: '/api/discovery/tasks/{id}',
    protect: true,
    tags: ['tasks'],
    summary: 'Move a task to another status (PENDING→IN_PROGRESS→COMPLETED|FAILED, FAILED→PENDING)',
    description:
      'Moves a task along the TaskStatus table; any other move is 409. With `leaseToken` (a claimer ' +
      'finishing its task) the change is made only while that token is the live lease of the task, ' +
      'else 409 `Lease lost: …` and nothing changes. Without it the change is an operator override. ' +
      'Any change away from IN_PROGRESS ends the lease; IN_PROGRESS set here carries no lease and is ' +
      'never reaped.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: {
      id: 'cm3x1q0a80000qz3k9v1f2b7c',
      status: 'FAILED',
      errorMessage: 'Repository not found (HTTP 404); 仓库不存在',
      leaseToken: '0b8f2c1e-5d3a-4c8e-9f61-2a7d4e9b3c10',
    },
    response: {
      success: true,
      task: {
        id: 'cm3x1q0a80000qz3k9v1f2b7c',
        sourceUrl: 'https://github.com/QwenLM/Qwen',
        sourceType: 'github',
        status: 'FAILED',
        createdAt: '2026-11-23T08:00:00.000Z',
        startedAt: '2026-11-23T09:15:02.311Z',
        completedAt: '2026-11-23T09:16:40.020Z',
        projectId: null,
        explorationData: null,
        explorationSummary: null,
        errorMessage: 'Repository not found (HTTP 404); 仓库不存在',
        retryCount: 0,
        lastRetryAt: null,
        attempt: 1,
        leaseExpiresAt: null,
        worker: 'crawler-7',
        availableAt: null,
      },
    },
  },
};

export const UpdateTaskStatusInput = z.object({
  id: text(),
  status: TaskStatus,
  // null clears a stored value; a field left out keeps it
  explorationData: jsonObject.nullable().optional(),
  explorationSummary: text({ max: 1000 }).nullable().optional(),
  errorMessage: text({ max: 2000 }).nullable().optional(),
  // fencing (docs/workers.md#what-fencing-protects-and-what-it-cannot): when sent, the change is made only
  // while this is the live lease
  leaseToken: text({ min: 1, max: 200 }).optional(),
});

export const UpdateTaskStatusOutput = z.object({ success: z.literal(true), task: Task });
