import { z } from 'zod';
import * as ex from '../examples.ts';
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
    description: 'The task with this id, in any status. Public: no key.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: ex.TASK_ID },
    response: { success: true, task: ex.exampleTask('COMPLETED') },
  },
};

export const GetTaskInput = z.object({ id: text() });

export const GetTaskOutput = z.object({ success: z.literal(true), task: Task });
