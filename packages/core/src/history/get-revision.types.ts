import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { MAX_INT, text } from '../schemas/common.ts';
import { EXAMPLE_REVISION, Revision } from './revision.types.ts';

/** A revision number in a path or query: a positive integer in decimal digits. */
export const revisionNumber = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
    z
      .int({
        error: (issue) => (issue.code === 'invalid_type' ? 'Invalid input: expected an integer' : undefined),
      })
      .min(1)
      .max(MAX_INT),
  );

export const getRevisionMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/projects/{slug}/revisions/{revision}',
    protect: false,
    tags: ['history'],
    summary: 'One revision of a project, with the project as it was',
    description:
      '`project` is the whole project as `GET /api/projects/{slug}` showed it right after that write (for a delete: ' +
      'just before it), content included. 404 when the project has no such revision (never made, or pruned). ' +
      'Public: no key.',
  },
  errors: ['NOT_FOUND', 'MOVED'],
  examples: {
    request: { slug: ex.QWEN_SLUG, revision: 2 },
    response: { success: true, data: { ...EXAMPLE_REVISION, project: ex.QWEN_PROJECT } },
  },
};

export const GetRevisionInput = z.object({
  slug: text(),
  revision: revisionNumber().meta({ description: 'The revision number (1, 2, …)' }),
});

export const GetRevisionOutput = z.object({ success: z.literal(true), data: Revision });
