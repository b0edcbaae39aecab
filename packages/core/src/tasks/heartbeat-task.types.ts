import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Task } from '../schemas/task.ts';

export const heartbeatTaskMeta: Meta = {
  scope: 'tasks:write',
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
    request: { id: ex.TASK_ID, leaseToken: ex.LEASE_TOKEN },
    response: { success: true, task: ex.exampleTask('IN_PROGRESS') },
  },
};

export const HeartbeatTaskInput = z.object({
  id: text(),
  leaseToken: text({ min: 1, max: 200 }),
  leaseSeconds: z.int().min(5).max(3600).optional(),
});

export const HeartbeatTaskOutput = z.object({ success: z.literal(true), task: Task });
