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
export const queryInt = ({ min, max, fallback }: { min: number; max?: number; fallback: number }) => {
  const int = z
    .int({
      error: (issue) => (issue.code === 'invalid_type' ? 'Invalid input: expected an integer' : undefined),
    })
    .min(min);
  return z
    .preprocess(
      (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
      // repeated in meta: the document's query parameter is the schema inside the preprocess
      (max === undefined ? int : int.max(max)).meta({ default: fallback }),
    )
    .default(fallback);
};

export const FindTasksInput = z.object({
  status: TaskStatus.optional(),
  limit: queryInt({ min: 1, max: 100, fallback: 10 }),
  offset: queryInt({ min: 0, fallback: 0 }),
});

export const FindTasksOutput = z.object({
  success: z.literal(true),
  tasks: z.array(Task),
  total: z.number().int(),
  hasMore: z.boolean(),
});
