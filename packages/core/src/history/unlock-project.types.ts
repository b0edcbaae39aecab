import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { LockProjectOutput } from './lock-project.types.ts';

export const unlockProjectMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'DELETE',
    path: '/api/projects/{slug}/lock',
    protect: true,
    tags: ['history'],
    summary: "Remove a project's lock",
    description:
      'Upserts and completes replace every field again. Stored as a revision (via "lock"); unlocking a project that ' +
      'is not locked changes nothing (200, `revision` null). 404 unknown slug, 409 a merged slug.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { slug: ex.QWEN_SLUG },
    response: { success: true, data: { ...ex.QWEN_PROJECT, lock: null }, revision: 4 },
  },
};

export const UnlockProjectInput = z.object({ slug: text() });

export const UnlockProjectOutput = LockProjectOutput;
