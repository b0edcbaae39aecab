import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text, timestamp } from '../schemas/common.ts';
import { TaskStatus } from '../schemas/task.ts';

export const checkTaskDuplicatesMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/api/discovery/check-duplicates',
    protect: true,
    tags: ['tasks'],
    summary: 'Check whether discovery urls already have a task or a project',
  },
};

export const CheckTaskDuplicatesInput = z.object({
  urls: z
    .array(text({ min: 1 }))
    .min(1)
    .max(100),
  // Accepted for compatibility; the decision does not depend on it.
  sourceType: text().optional(),
});

export const CheckTaskDuplicatesOutput = z.object({
  success: z.literal(true),
  results: z.array(
    z.object({
      url: z.string(),
      shouldCreate: z.boolean(),
      reason: z.string(),
      existingTask: z
        .object({
          id: z.string(),
          status: TaskStatus,
          sourceUrl: z.string(),
          createdAt: timestamp,
          projectId: z.string().nullable(),
        })
        .optional(),
      existingProject: z.object({ id: z.string(), name: z.string(), slug: z.string() }).optional(),
    }),
  ),
  stats: z.object({ total: z.number().int(), shouldCreate: z.number().int(), duplicate: z.number().int() }),
});
