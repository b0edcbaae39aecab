import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { count, httpUrl, optional, text } from '../schemas/common.ts';

export const createTasksMeta: Meta = {
  scope: 'tasks:write',
  openapi: {
    method: 'POST',
    path: '/api/discovery/tasks',
    protect: true,
    tags: ['tasks'],
    summary: 'Create discovery tasks; a sourceUrl that already has a task is skipped',
    description:
      'Creates a PENDING task per item (1–50). A sourceUrl that already has a task, whatever its status, or that ' +
      'repeats earlier in the request, is skipped; concurrent creates of one url make exactly one task. ' +
      '`total = created + skipped`.',
  },
  examples: {
    request: {
      tasks: [
        { sourceUrl: 'https://github.com/QwenLM/Qwen', sourceType: 'github' },
        { sourceUrl: 'https://zh.wikipedia.org/wiki/通义千问', sourceType: 'wiki' },
      ],
    },
    response: { success: true, created: 1, skipped: 1, total: 2 },
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
  created: count(),
  skipped: count(),
  total: count(),
});
