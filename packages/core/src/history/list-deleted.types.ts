import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text, timestamp } from '../schemas/common.ts';
import { queryInt } from '../schemas/query.ts';

export const listDeletedMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'GET',
    path: '/api/projects/deleted',
    protect: true,
    tags: ['history'],
    summary: 'Deleted projects, most recently deleted first',
    description:
      'Projects removed by `DELETE /api/projects/{slug}` (via "delete") or by a merge (via "merge"; their slug is ' +
      'an alias now; `mergedInto` names the project it went into, and it cannot be restored) that have not been restored, while their revisions are kept (`REVISIONS_DELETED_DAYS`). ' +
      "`revision` is the delete's revision: `GET /api/projects/{slug}/revisions/{revision}` shows the project as it " +
      'was. Restore one with `POST /api/projects/deleted/{id}/restore`. Follow `nextCursor` (null on the last page; ' +
      'also in the `Link` header).',
  },
  nextLink: { param: 'cursor', field: 'nextCursor' },
  examples: {
    request: { limit: 1 },
    response: {
      success: true,
      projects: [
        {
          id: ex.DUPLICATE_ID,
          slug: 'tongyi-qianwen',
          name: ex.QWEN_INPUT.name,
          nameEn: 'Tongyi Qianwen',
          deletedAt: '2026-11-25T10:04:55.120Z',
          revision: 3,
          via: 'delete',
          actor: 'alice',
          mergedInto: null,
        },
      ],
      nextCursor: 'eyJxIjoiIiwiayI6IjIwMjYtMTEtMjUifQ.c2lnbmF0dXJl',
    },
  },
};

export const ListDeletedInput = z.object({
  limit: queryInt({ min: 1, max: 100, fallback: 20 }),
  cursor: text({ min: 1, max: 4000 }).optional().meta({ description: 'A `nextCursor` from the page before' }),
});

export const DeletedProject = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    nameEn: z.string().nullable(),
    deletedAt: timestamp,
    revision: count().meta({ description: 'The revision that recorded the delete' }),
    via: z.enum(['delete', 'merge']),
    actor: z.string().nullable(),
    mergedInto: z.object({ slug: z.string() }).nullable().meta({
      description:
        'For a project that was merged: the project it went into. It cannot be restored (409); null otherwise',
    }),
  })
  .meta({ id: 'DeletedProject' });

export const ListDeletedOutput = z.object({
  success: z.literal(true),
  projects: z.array(DeletedProject),
  nextCursor: z.string().nullable(),
});
