import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Task } from '../schemas/task.ts';

export const heartbeatTaskMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/api/discovery/tasks/{id}/heartbeat',
    protect: true,
    tags: ['tasks'],
    summary: 'Extend the lease of a claimed task',
    description:
      'Extends the lease from now by `leaseSeconds` (default: the seconds of the claim or of the last ' +
      'heartbeat). 409 `Lease lost: …` when the token is not the live lease of the task: it expired, ' +
      'the task was reclaimed, completed, released or changed by PATCH, or the token was never valid. ' +
      'A worker that gets 409 must stop working on the task: someone else may be doing it.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { id: 'cm3x1q0a80000qz3k9v1f2b7c', leaseToken: '0b8f2c1e-5d3a-4c8e-9f61-2a7d4e9b3c10' },
    response: {
      success: true,
      task: {
        id: 'cm3x1q0a80000qz3k9v1f2b7c',
        sourceUrl: 'https://zh.wikipedia.org/wiki/通义千问',
        sourceType: 'wiki',
        status: 'IN_PROGRESS',
        createdAt: '2026-11-23T08:00:00.000Z',
        startedAt: '2026-11-23T09:15:02.311Z',
        completedAt: null,
        projectId: null,
        explorationData: null,
        explorationSummary: null,
        errorMessage: null,
        retryCount: 0,
        lastRetryAt: null,
        attempt: 1,
        leaseExpiresAt: '2026-11-23T09:21:42.007Z',
        worker: 'crawler-7',
        availableAt: null,
      },
    },
  },
};

export const HeartbeatTaskInput = z.object({
  id: text(),
  leaseToken: text({ min: 1, max: 200 }),
  leaseSeconds: z.int().min(5).max(3600).optional(),
});

export const HeartbeatTaskOutput = z.object({ success: z.literal(true), task: Task });
