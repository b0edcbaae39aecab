import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { Task, TaskStatus } from '../schemas/task.ts';

export const findTasksMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/discovery/tasks',
    protect: true,
    tags: ['tasks'],
    summary: 'List discovery tasks in queue order (oldest first)',
  },
};

// Query strings arrive as text: integers are read from decimal digits only ("1.5", "1e2",
// "0x10" and "" are refused), numbers passed by typed clients are taken as they are.
const queryInt = (min: number, max?: number) => {
  const int = z
    .int({
      error: (issue) => (issue.code === 'invalid_type' ? 'Invalid input: expected an integer' : undefined),
    })
    .min(min);
  return z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
    max === undefined ? int : int.max(max),
  );
};

export const FindTasksInput = z.object({
  status: TaskStatus.optional(),
  limit: queryInt(1, 100).default(10),
  offset: queryInt(0).default(0),
});

export const FindTasksOutput = z.object({
  success: z.literal(true),
  tasks: z.array(Task),
  total: z.number().int(),
  hasMore: z.boolean(),
});
