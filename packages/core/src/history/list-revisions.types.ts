import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { queryInt } from '../schemas/query.ts';
import { EXAMPLE_REVISION, RevisionSummary } from './revision.types.ts';

export const listRevisionsMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/projects/{slug}/revisions',
    protect: false,
    tags: ['history'],
    summary: "A project's revisions, newest first",
    description:
      'One revision per write of the project (create, update, merge, revert, restore, delete, lock; an update that ' +
      'changed nothing stores none), without the project bodies (read one with `/revisions/{revision}`). Follow ' +
      '`nextCursor` (null on the last page; also in the `Link` header). A deleted project keeps its revisions: its ' +
      'slug still names them until another project takes it. Public: no key. A merged slug answers 301 to the same path and query under the target slug.',
  },
  errors: ['NOT_FOUND', 'MOVED'],
  nextLink: { param: 'cursor', field: 'nextCursor' },
  examples: {
    request: { slug: ex.QWEN_SLUG, limit: 2 },
    response: {
      success: true,
      revisions: [
        EXAMPLE_REVISION,
        {
          ...EXAMPLE_REVISION,
          revision: 1,
          via: 'upsert',
          action: 'created',
          source: 'sample',
          taskId: null,
          actor: 'alice',
          key: null,
          at: '2026-11-24T16:02:41.003Z',
        },
      ],
      nextCursor: null,
    },
  },
};

export const ListRevisionsInput = z.object({
  slug: text(),
  limit: queryInt({ min: 1, max: 100, fallback: 20 }),
  cursor: text({ min: 1, max: 4000 }).optional().meta({ description: 'A `nextCursor` from the page before' }),
});

export const ListRevisionsOutput = z.object({
  success: z.literal(true),
  revisions: z.array(RevisionSummary),
  nextCursor: z.string().nullable(),
});
