import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { Task } from '../schemas/task.ts';

export const getTaskMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/discovery/tasks/{id}',
    protect: false,
    tags: ['tasks'],
    summary: 'Get a discovery task',
  },
  errors: ['NOT_FOUND'],
};

export const GetTaskInput = z.object({ id: text() });

export const GetTaskOutput = z.object({ success: z.literal(true), task: Task });
