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
const queryInt = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v), schema);

export const FindTasksInput = z.object({
  status: TaskStatus.optional(),
  limit: queryInt(z.number().int().min(1).max(100)).default(10),
  offset: queryInt(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).default(0),
});

export const FindTasksOutput = z.object({
  success: z.literal(true),
  tasks: z.array(Task),
  total: z.number().int(),
  hasMore: z.boolean(),
});
