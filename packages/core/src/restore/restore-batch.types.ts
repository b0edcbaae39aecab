import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, MAX_INT } from '../schemas/common.ts';
import { RestoreHeader } from './restore-line.types.ts';

/** The most projects one batch may carry (docs/operating.md#restore-from-an-export). */
export const RESTORE_BATCH_MAX = 500;

const EXAMPLE_HEADER = {
  type: 'export',
  version: 1,
  asOf: '2026-11-29T01:00:00.000Z',
  cursor: 'c_example',
  count: 1,
} as const;

export const restoreBatchMeta: Meta = {
  scope: 'keys:admin',
  openapi: {
    method: 'POST',
    path: '/api/restore',
    protect: true,
    tags: ['backup'],
    summary: 'Restore an export into an empty directory, a batch at a time',
    description:
      'Writes the projects of an export (GET /api/export?format=ndjson) back as they were: ids, slugs, aliases, ' +
      'statuses, tags and links under their ids, content, signals, locks, createdAt and updatedAt. Not an upsert: ' +
      "no id is made and no slug rule runs. Each call carries the export's header line, the line number of its first " +
      `project and at most ${RESTORE_BATCH_MAX} projects in id order; each call is one transaction (all or nothing), ` +
      "and the call with `done: true` checks that the header's count came; `check: true` checks a batch and writes nothing. The first batch needs an empty directory " +
      '(no project, deleted project, alias or tag): 409 names what it holds. A later batch must carry the same header ' +
      'and ids after the last one restored (GET /api/restore says where to resume). A bad line is 400 naming its ' +
      'line number, and nothing of the batch is written. Each project gets one revision (action "created", via ' +
      '"import-restore"). Needs keys:admin.',
  },
  errors: ['CONFLICT'],
  examples: {
    request: { header: EXAMPLE_HEADER, firstLine: 2, projects: [ex.QWEN_PROJECT], done: true },
    response: {
      success: true,
      data: { restored: 1, received: 1, expected: 1, lastId: ex.QWEN_ID, finished: true, checked: 1 },
    },
  },
};

export const RestoreBatchInput = z.object({
  header: RestoreHeader,
  firstLine: z.int().min(2).max(MAX_INT).meta({
    description: "The line number of the batch's first project in the export (the header is line 1)",
  }),
  projects: z
    .array(z.unknown())
    .max(RESTORE_BATCH_MAX)
    .meta({ description: 'Projects exactly as endpoint 2 answers them, each checked with its line number' }),
  done: z.boolean().optional().meta({ description: 'The last batch: the restore is checked and finished' }),
  check: z.boolean().optional().meta({
    description:
      'Only check: the lines, and that the directory would take the batch (empty, or this restore resumed); nothing is written',
  }),
});

export const RestoreProgress = z
  .object({
    restored: count().meta({ description: 'Projects this call wrote' }),
    received: count().meta({ description: 'Projects restored so far' }),
    expected: count().meta({ description: "The header's count" }),
    lastId: z
      .string()
      .nullable()
      .meta({ description: 'The last id restored: a resumed restore sends the ids after it' }),
    finished: z.boolean(),
    checked: count().meta({ description: 'Projects this call checked (with `check`: nothing written)' }),
  })
  .meta({ id: 'RestoreProgress' });

export const RestoreBatchOutput = z.object({ success: z.literal(true), data: RestoreProgress });
