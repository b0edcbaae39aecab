import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count } from '../schemas/common.ts';
import { LockField, ProjectInput, UpsertWarnings } from '../schemas/project.ts';

export const upsertProjectsMeta: Meta = {
  scope: 'projects:write',
  openapi: {
    method: 'POST',
    path: '/api/webhook/projects',
    protect: true,
    tags: ['projects'],
    summary: 'Create or update projects',
    description:
      'Each item is matched to a stored project by CODEHOST url, then WEBSITE url, then slug, and ' +
      'updated (fields, tags and links replaced) or created. Items are processed in order, each in its own transaction.',
  },
  examples: {
    request: { projects: [ex.QWEN_INPUT, ex.DEEPSEEK_V3_INPUT] },
    response: {
      success: true,
      processed: 2,
      created: 1,
      updated: 1,
      failed: 0,
      errors: [],
      results: [
        { index: 0, action: 'updated', id: ex.QWEN_ID, slug: ex.QWEN_SLUG, kept: ['name', 'tags'] },
        { index: 1, action: 'created', id: ex.DEEPSEEK_V3_ID, slug: ex.DEEPSEEK_V3_SLUG },
      ],
    },
  },
};

export const UpsertProjectsInput = z.object({
  projects: z.array(ProjectInput).min(1).max(100),
  /**
   * Once asked for `results`, which every reply now has
   * (docs/api.md#1-post-apiwebhookprojects-create-or-update-projects). Still accepted (and ignored), so
   * that callers written for the opt-in keep working.
   */
  results: z
    .boolean()
    .optional()
    .meta({ description: 'Ignored: `results` is always returned. Accepted for older callers.' }),
});

const UpsertError = z.object({
  index: count(),
  name: z.string(),
  error: z.string(),
});

export const UpsertProjectsOutput = z.object({
  success: z.literal(true),
  processed: count(),
  created: count(),
  updated: count(),
  failed: count(),
  errors: z.array(UpsertError),
  /** One entry per submitted project, in order: what was done and the project's slug. */
  results: z.array(
    z.object({
      index: z.number().int().min(0),
      action: z.enum(['created', 'updated', 'failed']),
      id: z.string().nullable(),
      slug: z.string().nullable(),
      kept: z.array(LockField).optional().meta({
        description:
          "Only when the item updated a locked project: the project's locked fields, kept as they were instead of the item's",
      }),
      warnings: UpsertWarnings,
    }),
  ),
});
