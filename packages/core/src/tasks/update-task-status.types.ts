import { z } from 'zod';
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
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
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
