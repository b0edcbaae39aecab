import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';

export const completeTaskMeta: Meta = {
  openapi: {
    method: 'POST',
    path: '/api/discovery/tasks/{id}/complete',
    protect: true,
    tags: ['tasks'],
    summary: 'Complete a task with the project it found (created or updated like POST /api/webhook/projects)',
  },
  errors: ['NOT_FOUND', 'CONFLICT', 'INVALID_EXPLORATION_DATA'],
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
});

export const CompleteTaskOutput = z.object({
  success: z.literal(true),
  taskId: z.string(),
  projectId: z.string(),
  /** The slug of the project written (EXTENSIONS A). */
  slug: z.string(),
  action: z.enum(['created', 'updated']),
  duration: z.number().int(),
});
