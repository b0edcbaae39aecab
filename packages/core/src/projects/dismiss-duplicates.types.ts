import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';

/** The example of both directions: a dismissal and its undo take and answer the same shapes. */
export const dismissalExamples = {
  request: { slugs: [ex.QWEN_SLUG, 'tongyi-qianwen'] },
  response: {
    success: true,
    projects: [
      { id: ex.QWEN_ID, slug: ex.QWEN_SLUG },
      { id: ex.DUPLICATE_ID, slug: 'tongyi-qianwen' },
    ],
    pairs: 1,
  },
} satisfies Meta['examples'];

export const dismissDuplicatesMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'POST',
    path: '/api/projects/duplicates/dismiss',
    protect: true,
    tags: ['projects'],
    summary: 'Say that some projects are distinct, not duplicates',
    description:
      'Records every pair of the 2–20 projects as distinct: none of those pairs forms a duplicate group again ' +
      '(`GET /api/projects/duplicates`; a group is listed while some pair of it is not dismissed). `pairs` is how ' +
      'many pairs were newly recorded (a pair dismissed before is kept as it was). `GET /api/projects/duplicates' +
      '?dismissed=true` lists the dismissals; `DELETE /api/projects/duplicates/dismiss` with the same body undoes ' +
      'them. 404 for an unknown slug; 409 for a merged slug (naming its target).',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: dismissalExamples,
};

export const DismissDuplicatesInput = z.object({
  slugs: z
    .array(text({ min: 1, max: 200 }))
    .min(2)
    .max(20)
    .refine((slugs) => new Set(slugs).size === slugs.length, 'Each slug may be given once')
    .meta({ description: 'The projects (2–20 slugs) that are distinct from one another' }),
});

export const DismissDuplicatesOutput = z.object({
  success: z.literal(true),
  projects: z.array(z.object({ id: z.string(), slug: z.string() })),
  pairs: count().meta({ description: 'The pairs recorded (dismiss) or removed (undo) by this request' }),
});
