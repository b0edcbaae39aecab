import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text, timestamp } from '../schemas/common.ts';
import { TaskStatus } from '../schemas/task.ts';

export const checkTaskDuplicatesMeta: Meta = {
  scope: 'tasks:write',
  openapi: {
    method: 'POST',
    path: '/api/discovery/check-duplicates',
    protect: true,
    tags: ['tasks'],
    summary: 'Check whether discovery urls already have a task or a project',
    description:
      'For each url (1–100 non-empty strings), in this order: a task whose sourceUrl has the same url key decides ' +
      '(`Task already pending|in progress|completed|failed`, with `existingTask`); else a project with a link of any ' +
      'type with that url key (`Project already exists`, with `existingProject`); else `New URL`, and ' +
      '`shouldCreate` is true. `matchedUrl` is the stored spelling that matched. The url key is one function of the ' +
      'url under which spellings of one thing are equal (scheme, host case, `www.`, `.git`, `/tree/…`, tracking ' +
      'parameters …; see the README, "Same project, other spelling"). `stats.duplicate = total - shouldCreate`.',
  },
  examples: {
    request: {
      urls: [
        'https://github.com/QwenLM/Qwen',
        'https://www.deepseek.com/',
        'https://github.com/THUDM/ChatGLM-6B',
      ],
    },
    response: {
      success: true,
      results: [
        {
          url: 'https://github.com/QwenLM/Qwen',
          shouldCreate: false,
          reason: 'Task already completed',
          matchedUrl: 'https://github.com/QwenLM/Qwen',
          existingTask: {
            id: ex.TASK_ID,
            status: 'COMPLETED',
            sourceUrl: 'https://github.com/QwenLM/Qwen',
            createdAt: ex.CREATED_AT,
            projectId: ex.QWEN_ID,
          },
        },
        {
          url: 'https://www.deepseek.com/',
          shouldCreate: false,
          reason: 'Project already exists',
          matchedUrl: 'https://www.deepseek.com/',
          existingProject: {
            id: ex.DEEPSEEK_V3_ID,
            name: ex.DEEPSEEK_V3_INPUT.name,
            slug: ex.DEEPSEEK_V3_SLUG,
          },
        },
        { url: 'https://github.com/THUDM/ChatGLM-6B', shouldCreate: true, reason: 'New URL' },
      ],
      stats: { total: 3, shouldCreate: 1, duplicate: 2 },
    },
  },
};

/** The reasons, in decision order (docs/api.md#9-post-apidiscoverycheck-duplicates-check-task-urls). */
export const DUPLICATE_REASONS = [
  'Task already pending',
  'Task already in progress',
  'Task already completed',
  'Task already failed',
  'Project already exists',
  'New URL',
] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

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
      reason: z.enum(DUPLICATE_REASONS),
      matchedUrl: z.string().optional().meta({
        description:
          "The stored spelling that matched: the task's sourceUrl or the project's link url (urls match by key, however spelled).",
      }),
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
  stats: z.object({ total: count(), shouldCreate: count(), duplicate: count() }),
});
