import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { queryInt } from '../schemas/query.ts';
import { Change } from './feed.ts';

export const listChangesMeta: Meta = {
  scope: 'changes:read',
  openapi: {
    method: 'GET',
    path: '/api/changes',
    protect: true,
    tags: ['changes'],
    summary: 'Read the change feed after a cursor (optionally waiting for new changes)',
    description:
      'Every project create/update/delete and every task create/status change, in the order a ' +
      'follower must read them. Follow `nextCursor`: every committed change is seen exactly once, ' +
      'also when transactions commit out of order across server processes; a change of a ' +
      'rolled-back write never appears. Without `after` the feed starts at the oldest retained ' +
      'change. With `wait` > 0 and nothing newer, the request waits up to that many seconds for ' +
      'a change (long-poll) and answers with an empty page when none came. Changes are kept ' +
      '`CHANGES_RETENTION_DAYS` (default 30); a cursor older than that is answered 410 Gone: ' +
      'changes were missed, re-read the projects and continue without `after`.',
  },
  errors: ['GONE'],
  examples: {
    request: { after: 'YzEuNzU2LjI', limit: 2, wait: 10 },
    response: {
      success: true,
      changes: [
        {
          cursor: 'YzEuNzU3LjM',
          type: 'project.updated',
          at: '2026-11-23T08:15:02.417Z',
          projectId: 'cmi9x1k0a0000qz8h3v2l5m7n',
          slug: 'qwen',
          taskId: null,
        },
        {
          cursor: 'YzEuNzU4LjQ',
          type: 'task.created',
          at: '2026-11-23T08:15:03.120Z',
          projectId: null,
          slug: null,
          taskId: 'cmi9x1m2b0001qz8hq4w7e1rt',
        },
      ],
      nextCursor: 'YzEuNzU4LjQ',
      hasMore: false,
    },
  },
};

export const ListChangesInput = z.object({
  after: text({ min: 1, max: 200 })
    .optional()
    .meta({ description: 'A cursor from an earlier page (`nextCursor`) or change (`cursor`)' }),
  limit: queryInt({ min: 1, max: 1000, fallback: 100 }),
  wait: queryInt({ min: 0, max: 30, fallback: 0 }),
});

export const ListChangesOutput = z.object({
  success: z.literal(true),
  changes: z.array(Change),
  nextCursor: z
    .string()
    .meta({ description: 'Pass as `after` for the next page; unchanged when the page is empty' }),
  hasMore: z.boolean().meta({ description: 'More changes can be read at once' }),
});
