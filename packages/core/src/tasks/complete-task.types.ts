import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';
import { LockField, UpsertWarnings } from '../schemas/project.ts';

export const completeTaskMeta: Meta = {
  scope: 'tasks:write',
  openapi: {
    method: 'POST',
    path: '/api/discovery/tasks/{id}/complete',
    protect: true,
    tags: ['tasks'],
    summary: 'Complete a task with the project it found (created or updated like POST /api/webhook/projects)',
    description:
      'Accepted from PENDING, IN_PROGRESS and FAILED (from COMPLETED: 409, whatever the data). `explorationData` is a ' +
      "ProjectInput: the project is created or updated as by POST /api/webhook/projects, stored as the task's " +
      '`explorationData`, and the task becomes COMPLETED with `projectId`. Invalid data is a 400 `Invalid exploration ' +
      'data format` and marks the task FAILED with the violations as `errorMessage`. `duration` is in milliseconds.',
  },
  errors: ['NOT_FOUND', 'CONFLICT', 'INVALID_EXPLORATION_DATA'],
  examples: {
    request: { id: ex.TASK_ID, explorationData: ex.QWEN_INPUT },
    response: {
      success: true,
      taskId: ex.TASK_ID,
      projectId: ex.QWEN_ID,
      slug: ex.QWEN_SLUG,
      action: 'created',
      duration: 38,
    },
  },
};

export const CompleteTaskInput = z.object({
  id: text(),
  // Validated as a ProjectInput by the procedure, after the task's existence and state: a
  // completed task is a 409 whatever the data, and invalid data also marks the task FAILED.
  explorationData: z.unknown().meta({
    description: 'A ProjectInput, checked after the task is found and not COMPLETED',
    // documented as what it must be, though the schema takes anything (see above)
    override: { $ref: '#/components/schemas/ProjectInput' },
  }),
  // fencing (docs/workers.md#what-fencing-protects-and-what-it-cannot): when sent, nothing is written
  // unless this is the live lease
  leaseToken: text({ min: 1, max: 200 }).optional(),
});

export const CompleteTaskOutput = z.object({
  success: z.literal(true),
  taskId: z.string(),
  projectId: z.string(),
  /** The slug of the project written (docs/api.md#8-post-apidiscoverytasksidcomplete). */
  slug: z.string(),
  action: z.enum(['created', 'updated']),
  kept: z.array(LockField).optional().meta({
    description:
      "Only when it updated a locked project: the project's locked fields, kept as they were instead of the data's",
  }),
  warnings: UpsertWarnings,
  duration: count(),
});
