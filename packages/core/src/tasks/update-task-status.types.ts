import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { jsonObject, text } from '../schemas/common.ts';
import { Task, TaskStatus } from '../schemas/task.ts';

export const updateTaskStatusMeta: Meta = {
  openapi: {
    method: 'PATCH',
    path: '/api/discovery/tasks/{id}',
    protect: true,
    tags: ['tasks'],
    summary: 'Move a task to another status (PENDING→IN_PROGRESS→COMPLETED|FAILED, FAILED→PENDING)',
    description:
      'Allowed: PENDING→IN_PROGRESS, IN_PROGRESS→COMPLETED|FAILED, FAILED→PENDING (a retry: ' +
      '`retryCount` + 1). Anything else, the same status again included, is 409. IN_PROGRESS sets `startedAt`, ' +
      'COMPLETED and FAILED set `completedAt`. `explorationData`, `explorationSummary` and `errorMessage` are ' +
      'stored whenever given (null clears a stored value; a field left out keeps it).',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: {
      id: ex.TASK_ID,
      status: 'IN_PROGRESS',
      explorationSummary: ex.exampleTask('IN_PROGRESS').explorationSummary,
    },
    response: { success: true, task: ex.exampleTask('IN_PROGRESS') },
  },
};

export const UpdateTaskStatusInput = z.object({
  id: text(),
  status: TaskStatus,
  // null clears a stored value; a field left out keeps it
  explorationData: jsonObject.nullable().optional(),
  explorationSummary: text({ max: 1000 }).nullable().optional(),
  errorMessage: text({ max: 2000 }).nullable().optional(),
});

export const UpdateTaskStatusOutput = z.object({ success: z.literal(true), task: Task });
