import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count } from '../schemas/common.ts';
import { Task, TaskStatus } from '../schemas/task.ts';

export const findTasksMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/discovery/tasks',
    protect: true,
    tags: ['tasks'],
    summary: 'List discovery tasks in queue order (oldest first)',
    description:
      'Tasks oldest first (then by id), optionally of one status, `limit` (1–100, default 10) from `offset` ' +
      '(default 0). `total` counts every task that matches; `hasMore` is true when more follow this page.',
  },
  examples: {
    request: { status: 'PENDING', limit: 10, offset: 0 },
    response: {
      success: true,
      tasks: [
        ex.exampleTask('PENDING'),
        {
          ...ex.exampleTask('PENDING'),
          id: 'k3j5h7g9f1d2s4a6q8w0e2r4',
          sourceUrl: 'https://zh.wikipedia.org/wiki/通义千问',
          sourceType: 'wiki',
          createdAt: ex.UPDATED_AT,
        },
      ],
      total: 2,
      hasMore: false,
    },
  },
};

// Query strings arrive as text: integers are read from decimal digits only ("1.5", "1e2",
// "0x10" and "" are refused), numbers passed by typed clients are taken as they are.
const queryInt = ({ min, max, fallback }: { min: number; max?: number; fallback: number }) => {
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
  total: count(),
  hasMore: z.boolean(),
});
