import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { count, timestamp } from '../schemas/common.ts';
import { queryObject } from '../schemas/query.ts';

export const getRestoreMeta: Meta = {
  scope: 'keys:admin',
  openapi: {
    method: 'GET',
    path: '/api/restore',
    protect: true,
    tags: ['backup'],
    summary: 'Whether this directory was restored from an export, and how far',
    description:
      '`state` is "none" (never restored), "unfinished" (a restore stopped half-way: resume it with the same ' +
      'export, after `lastId`) or "finished"; `contents` counts what the directory holds (a restore needs them all ' +
      '0). Needs keys:admin.',
  },
  examples: {
    request: {},
    response: {
      success: true,
      data: {
        state: 'none',
        restore: null,
        contents: { projects: 0, deleted: 0, aliases: 0, tags: 0 },
      },
    },
  },
};

export const GetRestoreInput = queryObject({});

export const GetRestoreOutput = z.object({
  success: z.literal(true),
  data: z.object({
    state: z.enum(['none', 'unfinished', 'finished']),
    restore: z
      .object({
        asOf: timestamp,
        cursor: z.string(),
        expected: count(),
        received: count(),
        lastId: z.string().nullable(),
        startedAt: timestamp,
        updatedAt: timestamp,
        finishedAt: timestamp.nullable(),
      })
      .nullable(),
    contents: z.object({ projects: count(), deleted: count(), aliases: count(), tags: count() }),
  }),
});
