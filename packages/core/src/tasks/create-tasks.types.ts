import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { httpUrl, optional, text } from '../schemas/common.ts';

export const createTasksMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/api/discovery/tasks',
    protect: true,
    tags: ['tasks'],
    summary: 'Create discovery tasks; a sourceUrl that already has a task is skipped',
  },
};

export const CreateTasksInput = z.object({
  tasks: z
    .array(z.object({ sourceUrl: httpUrl, sourceType: optional(text({ min: 1 })) }))
    .min(1)
    .max(50),
});

export const CreateTasksOutput = z.object({
  success: z.literal(true),
  created: z.number().int(),
  skipped: z.number().int(),
  total: z.number().int(),
});
