import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, optional, text } from '../schemas/common.ts';
import { LockField, Project } from '../schemas/project.ts';

export const lockProjectMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'PUT',
    path: '/api/projects/{slug}/lock',
    protect: true,
    tags: ['history'],
    summary: "Protect a project's fields from upserts and completes",
    description:
      'An upsert (`POST /api/webhook/projects`) or a complete that updates this project afterwards keeps the locked ' +
      'fields as they are and replaces the others as usual; its `results` entry (the complete: its answer) lists them ' +
      'in `kept`. Identity is not affected: the project is found by the same urls and slug. `fields` is a list of ' +
      'name, nameEn, description, descriptionEn, content, contentEn, status, tags, links, or `"*"` for all of them. ' +
      "The lock replaces any earlier lock; it is shown in the project's `lock` and stored as a revision (via " +
      '"lock"; none when the lock is already exactly this). Reverts, restores and merges are people\'s own acts and ' +
      'are not stopped by it. 404 unknown slug, 409 a merged slug.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: {
      slug: ex.QWEN_SLUG,
      fields: ['name', 'nameEn', 'tags', 'links'],
      reason: 'Curated by the editors',
    },
    response: {
      success: true,
      data: {
        ...ex.QWEN_PROJECT,
        lock: {
          fields: ['name', 'nameEn', 'tags', 'links'],
          reason: 'Curated by the editors',
          at: '2026-11-25T10:00:00.000Z',
        },
      },
      revision: 3,
    },
  },
};

export const LockProjectInput = z.object({
  slug: text(),
  fields: z
    .union([z.literal('*'), z.array(LockField).min(1).max(9)], {
      error: `Expected "*" or a list of at least one of ${LockField.options.join(', ')}`,
    })
    .meta({
      description: 'The fields to keep, or "*" for all of them',
    }),
  reason: optional(text({ min: 1, max: 500 })).meta({ description: 'Why (shown to whoever edits it)' }),
});

export const LockProjectOutput = z.object({
  success: z.literal(true),
  data: Project,
  revision: count()
    .nullable()
    .meta({ description: 'The revision this change stored; null when nothing changed' }),
});
