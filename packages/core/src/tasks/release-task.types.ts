import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { optional, text } from '../schemas/common.ts';
import { Task } from '../schemas/task.ts';

export const releaseTaskMeta: Meta = {
  scope: 'tasks:write',
  openapi: {
    method: 'POST',
    path: '/api/discovery/tasks/{id}/release',
    protect: true,
    tags: ['tasks'],
    summary: 'Give a claimed task back to the queue',
    description:
      'Ends the lease and puts the task back: PENDING, startedAt cleared, availableAt = now + ' +
      'retryAfterSeconds, retryCount + 1, lastRetryAt now, errorMessage stored when given (kept ' +
      'otherwise). 409 `Lease lost: …` as for heartbeat.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: {
      id: 'cm3x1q0a80000qz3k9v1f2b7c',
      leaseToken: '0b8f2c1e-5d3a-4c8e-9f61-2a7d4e9b3c10',
      errorMessage: 'GitHub API rate limit exceeded (HTTP 403); 获取仓库信息失败',
      retryAfterSeconds: 600,
    },
    response: {
      success: true,
      task: {
        id: 'cm3x1q0a80000qz3k9v1f2b7c',
        sourceUrl: 'https://github.com/QwenLM/Qwen',
        sourceType: 'github',
        status: 'PENDING',
        createdAt: '2026-11-23T08:00:00.000Z',
        startedAt: null,
        completedAt: null,
        projectId: null,
        explorationData: null,
        explorationSummary: null,
        errorMessage: 'GitHub API rate limit exceeded (HTTP 403); 获取仓库信息失败',
        retryCount: 1,
        lastRetryAt: '2026-11-23T09:17:30.482Z',
        attempt: 1,
        leaseExpiresAt: null,
        worker: 'crawler-7',
        availableAt: '2026-11-23T09:27:30.482Z',
      },
    },
  },
};

export const ReleaseTaskInput = z.object({
  id: text(),
  leaseToken: text({ min: 1, max: 200 }),
  errorMessage: optional(text({ max: 2000 })),
  retryAfterSeconds: z.int().min(0).max(86_400).default(0),
});

export const ReleaseTaskOutput = z.object({ success: z.literal(true), task: Task });
